import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { openDatabase, type DatabaseHandle } from "./client.ts";
import { seedCategories, seedDemoData } from "./seed/index.ts";

/** Opens the configured database, applies migrations and seeds what the config asks for. */
export async function prepareDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    await seedCategories(database.db);
    if (config.seedDemoData && (await seedDemoData(database.db))) {
      logger.info("seeded demo data (see README for the demo accounts)");
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
