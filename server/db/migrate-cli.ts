/** `npm run db:migrate`: applies migrations and seeds the category taxonomy (and demo data in local mode). */
import { ConfigError, loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { prepareDatabase } from "./prepare.ts";

try {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const database = await prepareDatabase(config, logger);
  await database.close();
  logger.info({ database: config.database.kind }, "database is up to date");
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
