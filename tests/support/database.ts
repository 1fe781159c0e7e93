/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";

export interface TestDatabase extends DatabaseHandle {
  /** The PostgreSQL URL of this database; undefined for PGlite. */
  url?: string;
  /** Closes the connection and removes the database. */
  destroy(): Promise<void>;
}

/**
 * `serverUrl` (default TEST_DATABASE_URL) names the PostgreSQL server to create the database
 * on, and `prefix` (default dg_test) starts its name. `migrated: false` leaves a PostgreSQL
 * database empty (for a server process to migrate).
 */
export async function createTestDatabase(
  options: { serverUrl?: string; prefix?: string; migrated?: boolean } = {},
): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ kind: "pglite", dataDir: "memory://" });
    await handle.migrate();
    return { ...handle, destroy: () => handle.close() };
  }

  const name = `${options.prefix ?? "dg_test"}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 5 });
  if (options.migrated !== false) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    destroy: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
