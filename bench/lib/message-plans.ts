/**
 * Query plans of the app's own statements (issue 35, "Nothing grows with the data that should
 * not"): the app's functions run once against the database through a drizzle that records each
 * statement it sends, and every SELECT among them is then EXPLAINed (ANALYZE, BUFFERS) with the
 * same parameters. So the plans are those of the SQL the pages send, not of a copy of it.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Database } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";
import { readInbox } from "../../server/conversations/inbox.ts";
import { threadPage } from "../../server/conversations/thread.ts";
import { readerTime } from "../../server/reader-time.ts";

export interface StatementPlan {
  /** What ran it: `inbox`, `thread`, ... */
  page: string;
  sql: string;
  plan: string[];
  /** The plan's scan, sort and limit lines: what decides whether it grows. */
  scans: string[];
  executionMs: number;
}

/** Runs each named function once on a recording drizzle, then EXPLAINs the SELECTs they sent. */
export async function recordedPlans(url: string, pages: Record<string, (db: Database) => Promise<unknown>>): Promise<StatementPlan[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const recorded: Array<{ page: string; sql: string; params: unknown[] }> = [];
  let page = "";
  const db = drizzle({ client: pool, schema, casing: "snake_case", logger: { logQuery: (sql, params) => recorded.push({ page, sql, params }) } });
  try {
    for (const [name, run] of Object.entries(pages)) {
      page = name;
      await run(db);
    }
    const plans: StatementPlan[] = [];
    for (const statement of recorded) {
      if (!/^\s*\(?\s*(select|with)\b/i.test(statement.sql)) continue;
      const { rows } = await pool.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${statement.sql}`, statement.params);
      const plan = rows.map((row) => row["QUERY PLAN"]);
      plans.push({
        page: statement.page,
        sql: statement.sql.replace(/\s+/g, " ").slice(0, 300),
        plan,
        scans: plan.filter((line) => /Scan|Limit|Sort/.test(line)).map((line) => line.trim()),
        executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(plan.join("\n"))?.[1] ?? NaN),
      });
    }
    return plans;
  } finally {
    await pool.end();
  }
}

/** The plans of `userId`'s inbox (first page) and of `threadId`'s newest page. */
export const messagePlans = (url: string, userId: string, threadId: string) =>
  recordedPlans(url, {
    inbox: (db) => readInbox(db, userId, null, readerTime("UTC", { defaultTimeZone: "UTC" })),
    thread: (db) => threadPage(db, userId, threadId, null, readerTime("UTC", { defaultTimeZone: "UTC" })),
  });
