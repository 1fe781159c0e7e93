/**
 * `npm run jobs:purge`: one purge run (server/privacy/purge.ts) against the configured
 * database, for a scheduler outside the server (cron). Safe beside the server's own job on
 * PostgreSQL; the embedded database (PGlite) must never be opened by two processes, so with
 * it, run this only while the server is stopped.
 */
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { createLogger } from "./logger.ts";
import { purgeDeletedAccounts } from "./privacy/purge.ts";
import type { AppServices } from "./context.ts";
import { closeServices, createServices } from "./services.ts";

try {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config.database);
  let services: AppServices | undefined;
  try {
    await database.migrate();
    services = createServices(config, database, logger);
    const purged = await purgeDeletedAccounts(services);
    logger.info({ purged, delayHours: config.accountPurgeDelayHours }, "account purge done");
  } finally {
    // Or the process would stay up on the bus's listening connection.
    if (services) await closeServices(services);
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
