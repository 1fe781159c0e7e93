import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { openDatabase, type DatabaseHandle } from "./client.ts";
import { seedCategories, seedDemoData } from "./seed/index.ts";

/**
 * The PostgreSQL advisory lock held while one process migrates and seeds: several servers
 * starting at once (behind a proxy) take turns, instead of each applying the same migration.
 * ("dg" "mi" in ASCII; any number no other code of ours locks.)
 */
export const MIGRATION_LOCK_ID = 0x6467_6d69;

/** Opens the configured database, applies migrations and seeds what the config asks for. */
export async function prepareDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const database = await openDatabase(config.database);
  try {
    await oneAtATime(database, logger, async () => {
      await database.migrate();
      await seedCategories(database.db);
      if (config.seedDemoData && (await seedDemoData(database.db))) {
        logger.info("seeded demo data (see README for the demo accounts)");
      }
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Runs `work` holding MIGRATION_LOCK_ID on PostgreSQL; PGlite has one process by design. */
async function oneAtATime(database: DatabaseHandle, logger: Logger, work: () => Promise<void>) {
  if (database.driver.kind !== "postgres") return work();
  const client = await database.driver.pool.connect();
  let failed: unknown;
  try {
    const taken = await client.query<{ taken: boolean }>("select pg_try_advisory_lock($1) as taken", [MIGRATION_LOCK_ID]);
    if (!taken.rows[0]?.taken) {
      logger.info("another process is migrating the database: waiting for it");
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    }
    await work();
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
  } catch (error) {
    failed = error;
    throw error;
  } finally {
    // A connection that failed is closed, which also lets go of its lock.
    client.release(failed !== undefined);
  }
}
