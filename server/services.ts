/**
 * What the server hands to every request: the parsed configuration, the database and the
 * logger. Route loaders and actions receive it as React Router's load context, so server
 * modules hold no global state and tests can build their own.
 */
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { Logger } from "./logger.ts";

export interface AppServices {
  config: Config;
  db: Database;
  logger: Logger;
}

declare module "react-router" {
  interface AppLoadContext {
    services: AppServices;
    /** The request's logger, carrying its request id. */
    logger: Logger;
    requestId: string;
  }
}
