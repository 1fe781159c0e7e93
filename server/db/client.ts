/**
 * Opens the database: a PostgreSQL server through `pg` when a URL is given, otherwise the
 * embedded PGlite in a data directory. Both yield the same Drizzle `Database` type, so the
 * rest of the server has one code path.
 */
import { mkdirSync } from "node:fs";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";
import * as schema from "./schema.ts";

type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; poolSize?: number; connectTimeoutMs?: number }
  | {
      kind: "pglite";
      dataDir: string;
      /** A data directory dumped by PGlite's `dumpDataDir` to start from (the tests' migrated copy), instead of a new cluster. */
      loadDataDir?: Blob;
    };

/**
 * The driver under Drizzle, for the libraries that talk to PostgreSQL themselves (the job
 * queue, the rate limits): the pool of a PostgreSQL server, or the embedded PGlite instance.
 */
export type DatabaseDriver = { kind: "postgres"; pool: Pool; url: string } | { kind: "pglite"; client: PGlite };

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseTarget["kind"];
  driver: DatabaseDriver;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;
/**
 * How long a query waits for a connection: to open one, or for a free one in the pool. A
 * server that accepts connections but never answers (frozen, or behind a network that drops
 * packets) would otherwise hold every request until TCP gives up; after this the request
 * gets the "try again" page. (/readyz gives up sooner: server/health.ts.) Far above the slowest whole request seen
 * under load (docs/security.md: 2.7 s, 200 people on a pool of 10).
 */
const CONNECT_TIMEOUT_MS = 10_000;

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      connectionTimeoutMillis: target.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    });
    // An idle client that loses its server must not crash the process; the pool replaces it.
    pool.on("error", () => {});
    // Nor one that is checked out, as a transaction is between two statements: pg emits the
    // server's "terminating connection" on the client then, and an 'error' event nobody listens
    // to ends the process. The transaction's next statement fails instead (a 503).
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzle({ client: pool, schema, casing: "snake_case" });
    return {
      db,
      kind: "postgres",
      driver: { kind: "postgres", pool, url: target.url },
      migrate: () => migrate(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (target.dataDir !== "memory://") mkdirSync(target.dataDir, { recursive: true });
  const client = await PGlite.create(target.dataDir, { extensions: { pg_trgm }, loadDataDir: target.loadDataDir });
  const db = drizzle({ client, schema, casing: "snake_case" });
  return {
    db,
    kind: "pglite",
    driver: { kind: "pglite", client },
    migrate: async () => {
      await migrate(db, { migrationsFolder });
      // PGlite has no autovacuum worth relying on: refresh planner statistics ourselves.
      await client.exec("ANALYZE");
    },
    close: () => client.close(),
  };
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Database | Transaction, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
