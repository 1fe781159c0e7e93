/**
 * Reading a query's plan in tests: a drizzle that records the statements an app function sends
 * (so the test EXPLAINs exactly those), and the plan with sequential scans, bitmap scans and
 * sorts priced out, so that an index which cannot give the order asked for still leaves a Sort.
 */
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Database } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";
import type { TestApp } from "./app.ts";

export interface Statement {
  sql: string;
  params: unknown[];
}

/** A drizzle on the app's database that records each statement it sends into `recorded`. */
export function recordingDb(app: TestApp, recorded: Statement[]): Database {
  const logger = { logQuery: (sql: string, params: unknown[]) => recorded.push({ sql, params }) };
  const driver = app.database.driver;
  return driver.kind === "postgres"
    ? drizzlePg({ client: driver.pool, schema, casing: "snake_case", logger })
    : (drizzlePglite({ client: driver.client, schema, casing: "snake_case", logger }) as unknown as Database);
}

/** The plan of a statement with sequential scans, bitmap scans and sorts priced out. */
export async function plan(app: TestApp, statement: Statement): Promise<string> {
  const settings = ["set enable_seqscan = off", "set enable_bitmapscan = off", "set enable_sort = off"];
  const reset = ["reset enable_seqscan", "reset enable_bitmapscan", "reset enable_sort"];
  const driver = app.database.driver;
  if (driver.kind === "pglite") {
    for (const setting of settings) await driver.client.query(setting);
    try {
      const { rows } = await driver.client.query<{ "QUERY PLAN": string }>(`explain ${statement.sql}`, statement.params);
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      for (const setting of reset) await driver.client.query(setting);
    }
  }
  const client = await driver.pool.connect();
  try {
    for (const setting of settings) await client.query(setting);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain ${statement.sql}`, statement.params);
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    for (const setting of reset) await client.query(setting);
    client.release();
  }
}
