/**
 * The real application, in-process: the Hono app over the built React Router server and a
 * fresh test database (or one shared with other apps, as server processes share one). Requests
 * go through `app.request()`, without a port. Log lines are kept so tests can assert on them.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { createApp } from "../../server/app.ts";
import { loadConfig, type Config } from "../../server/config.ts";
import { seedCategories } from "../../server/db/seed/index.ts";
import { startJobs } from "../../server/workers.ts";
import type { Mailer } from "../../server/mail/mailer.ts";
import type { AppServices } from "../../server/context.ts";
import { closeServices, createServices } from "../../server/services.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const buildDir = path.resolve(projectRoot, process.env.BUILD_DIR ?? "build");

export async function loadServerBuild(): Promise<ServerBuild> {
  const file = path.join(buildDir, "server/index.js");
  if (!existsSync(file)) throw new Error("No server build: run `npm run build` before the integration tests.");
  return (await import(file)) as ServerBuild;
}

export interface TestApp {
  /** A request whose socket address is `clientIp` (default 127.0.0.1). */
  request(pathOrUrl: string, init?: RequestInit, clientIp?: string): Promise<Response>;
  database: TestDatabase;
  config: Config;
  mailer: Mailer;
  services: AppServices;
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Another test app's database, for a second server on the same data; its owner removes it. */
  database?: TestDatabase;
}

/**
 * The settings of a production app for `createTestApp(env, { database })`: the database URL only
 * satisfies the configuration, the app runs on the database given; the test checkout and the
 * mail outbox are on, nothing else is (no SMS provider: phone verification is off).
 */
export const PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
  BETTER_AUTH_SECRET: "a-test-secret-that-is-long-enough-000",
  PUBLIC_URL: "http://localhost:3000",
  PAYMENTS_PROVIDER: "test",
  MAIL_TRANSPORT: "outbox",
};

export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const shared = options.database;
  const database = shared ?? (await createTestDatabase());
  if (!shared) await seedCategories(database.db);
  const config = loadConfig({ NODE_ENV: "test", DATABASE_URL: database.url, ...env });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: "info", base: undefined }, sink);
  const services = createServices(config, database, logger);
  // The job queue and its workers run as in the server: e-mail delivery, refund retries, the purge.
  await services.jobs.start();
  await startJobs(services);
  const app = createApp({
    services,
    build: await loadServerBuild(),
    clientDir: path.join(buildDir, "client"),
  });
  return {
    request: (pathOrUrl, init, clientIp = "127.0.0.1") =>
      Promise.resolve(
        app.request(new URL(pathOrUrl, config.publicUrl).toString(), init, {
          incoming: { socket: { remoteAddress: clientIp } },
        }),
      ),
    database,
    config,
    mailer: services.mailer,
    services,
    logs,
    close: async () => {
      await closeServices(services);
      if (!options.database) await database.destroy();
    },
  };
}
