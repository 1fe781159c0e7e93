/**
 * A fresh, migrated database for one test file: in-memory PGlite by default (started from a
 * migrated copy), or a new database on the PostgreSQL server named by TEST_DATABASE_URL
 * (dropped afterwards).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";

const root = path.resolve(import.meta.dirname, "../..");
const migrations = path.join(root, "server/db/migrations");

/**
 * PGlite's first start makes a new cluster (its initdb: about 3 s here, against 0.8 s for our
 * migrations); starting from a dumped data directory takes about 1 s. So the migrated database
 * is dumped once, to a file named by what made it (each test
 * file runs in a fresh module context, so a file is what outlives one), and every later test
 * database starts from it.
 */
let migrated: Promise<Blob> | undefined;
const migratedPglite = () => (migrated ??= dumpMigratedPglite());

async function dumpMigratedPglite(): Promise<Blob> {
  // What makes the copy: PGlite's version, `migrate` (server/db/client.ts) and the migrations.
  const hash = createHash("sha256")
    .update(readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json")))
    .update(readFileSync(path.join(root, "server/db/client.ts")));
  for (const file of readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(migrations, file);
    if (file.endsWith(".sql") || file.endsWith(".json")) hash.update(file).update(readFileSync(full));
  }
  const dir = path.join(root, "node_modules/.cache/dg-test-pglite");
  const file = path.join(dir, `${hash.digest("hex").slice(0, 16)}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const handle = await openDatabase({ kind: "pglite", dataDir: "memory://" });
  await handle.migrate();
  if (handle.driver.kind !== "pglite") throw new Error("expected PGlite");
  const dump = await handle.driver.client.dumpDataDir("none");
  await handle.close();
  // Written aside and renamed: another test process may be making the same file.
  mkdirSync(dir, { recursive: true });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
  renameSync(aside, file);
  // Copies made by older migrations are 40 MB each and never read again.
  for (const old of readdirSync(dir)) if (old.endsWith(".tar") && path.join(dir, old) !== file) rmSync(path.join(dir, old), { force: true });
  return dump;
}

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
    const handle = await openDatabase({ kind: "pglite", dataDir: "memory://", loadDataDir: await migratedPglite() });
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
