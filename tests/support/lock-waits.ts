/**
 * Deterministic interleavings on PostgreSQL: resolves once some session of the current database
 * waits on a lock (the second of two racing transactions is blocked behind the first's row lock),
 * so a test can commit the first only then.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../../server/db/client.ts";

export async function someoneWaitsOnALock(db: Database): Promise<void> {
  for (;;) {
    const [waiting] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
    if (waiting!.n > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
