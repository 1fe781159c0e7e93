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
import { createServices } from "./services.ts";

try {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const purged = await purgeDeletedAccounts(createServices(config, database, logger));
    logger.info({ purged, delayHours: config.accountPurgeDelayHours }, "account purge done");
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
