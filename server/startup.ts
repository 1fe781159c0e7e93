/**
 * The HTTP server from the first moment of the process: it listens before the database is
 * migrated, answering `/healthz` (alive) and `/readyz` (503 "migrating", then "starting")
 * and 503 with Retry-After to everything else, so that a load balancer sees a starting
 * server as alive but not ready. `serve` then hands every request, on connections already
 * open too, to the full app.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Config } from "./config.ts";
import { startingApp, type NotReadyReason } from "./health.ts";
import type { Logger } from "./logger.ts";

export interface StartingServer {
  server: Server;
  /** What `/readyz` answers until `serve` is called. */
  phase: NotReadyReason;
  /** From now on every request goes to `listener`. */
  serve(listener: RequestListener): void;
}

export function listenEarly(config: Config, logger: Logger): StartingServer {
  const starting: StartingServer = {
    server: createServer((req, res) => handler(req, res)),
    phase: "migrating",
    serve(listener) {
      handler = listener;
      const ready = () =>
        logger.info({ url: config.publicUrl, database: config.database.kind, mode: config.mode, pid: process.pid }, "Digs & Gigs is listening");
      if (starting.server.listening) ready();
      else starting.server.once("listening", ready);
    },
  };
  let handler: RequestListener = getRequestListener(startingApp(() => starting.phase).fetch);
  starting.server.listen(config.port, config.host, () => {
    logger.info({ port: config.port }, "accepting connections while starting");
  });
  return starting;
}
