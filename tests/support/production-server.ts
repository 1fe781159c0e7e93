/**
 * The built server (BUILD_DIR, default build/) as a child process in production mode on a
 * PostgreSQL database, with the built-in test checkout, for the long tests (tests/hard).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports.ts";
import { startServerProcess, waitForReady, type ServerProcess } from "./server-process.ts";

export interface ProductionServer {
  url: string;
  process: ServerProcess;
  /** True while the process runs. */
  alive(): boolean;
  /** SIGTERM (graceful shutdown), SIGKILL after 15 s; removes the data directory. */
  stop(): Promise<void>;
}

export async function startProductionServer(options: {
  databaseUrl: string;
  /** A real SMTP server; without one, e-mail is kept in the outbox table. */
  smtpUrl?: string;
  logLevel?: string;
  env?: Record<string, string>;
}): Promise<ProductionServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "dg-data-"));
  const server = startServerProcess({
    NODE_ENV: "production",
    LOG_LEVEL: options.logLevel ?? "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: url,
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    PAYMENTS_PROVIDER: "test",
    ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : { MAIL_TRANSPORT: "outbox" }),
    ...options.env,
  });
  const stop = async () => {
    if (server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
      await server.exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForReady(url, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, process: server, alive: () => server.child.exitCode === null && server.child.signalCode === null, stop };
}
