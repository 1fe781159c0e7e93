/**
 * The server process: configuration, database (migrated and seeded), HTTP, and a graceful
 * shutdown that finishes requests in flight and closes the database cleanly.
 * `--dev` serves the app through Vite with hot reload instead of the production build.
 */
import "./runtime.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createApp } from "./app.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { prepareDatabase } from "./db/prepare.ts";
import { createLogger } from "./logger.ts";
import { startJobs } from "./workers.ts";
import { startReplyListener } from "./conversations/inbound/start.ts";
import { closeServices, createServices } from "./services.ts";
import { listenEarly } from "./startup.ts";

const dev = process.argv.includes("--dev");
const projectRoot = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(projectRoot, process.env.BUILD_DIR ?? "build");

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`${error.message}\nSee .env.example for every setting.`);
  process.exit(1);
}

const logger = createLogger(config.logLevel);
// Alive (and not ready) from here on: /healthz and /readyz answer while the database is prepared.
const starting = listenEarly(config, logger);
const database = await prepareDatabase(config, logger);
starting.phase = "starting";
const services = createServices(config, database, logger);
await services.jobs.start();
await startJobs(services);

let build: ServerBuild | (() => Promise<ServerBuild>);
let middleware: ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | undefined;
let closeVite = async () => {};
if (dev) {
  const vite = await import("vite").then((v) =>
    v.createServer({ root: projectRoot, server: { middlewareMode: true }, appType: "custom" }),
  );
  build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  middleware = vite.middlewares;
  closeVite = () => vite.close();
} else {
  build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
}

const app = createApp({
  services,
  build,
  clientDir: dev ? undefined : path.join(buildDir, "client"),
});
const listener = getRequestListener(app.fetch);
starting.serve(middleware ? (req, res) => middleware(req, res, () => listener(req, res)) : listener);
const { server } = starting;
const replyListener = await startReplyListener(services);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing requests in flight");
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Live streams never finish by themselves: end them (browsers reconnect to another server).
  services.live.closeAll();
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  force.unref();
  await Promise.all([closed, replyListener?.close()]);
  await closeVite();
  await closeServices(services);
  await database.close();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
