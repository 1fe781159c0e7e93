import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { COUNT_CAP } from "#core/result-count.ts";
import { queryRows, type Database } from "./client.ts";

/** The longest search text we look for; longer input is cut, not refused. */
export const SEARCH_MAX_LENGTH = 100;

/**
 * Case-insensitive "contains" on a lower-cased search column (`search_text` of gigs and
 * digger profiles, each served by its own pg_trgm index). The user's text is lower-cased by
 * PostgreSQL, as the column was, and matched literally: %, _ and \ lose their LIKE meaning.
 */
export function containsText(searchColumn: AnyPgColumn | SQL, term: string | Placeholder): SQL {
  return sql`${searchColumn} like lower(${typeof term === "string" ? containsPattern(term) : term})`;
}

/** The LIKE pattern of "contains `term`" (`containsText`'s, for a placeholder's value). */
export function containsPattern(term: string): string {
  return `%${term.slice(0, SEARCH_MAX_LENGTH).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** "Contains" on a location column, served by its `lower(location) gin_trgm_ops` index. */
export function containsLocation(locationColumn: AnyPgColumn, term: string): SQL {
  return containsText(sql`lower(${locationColumn})`, term);
}


/** How many rows the query `rows` (a select) gives, counted up to COUNT_CAP + 1 (more than the cap means "cap+"). */
export async function cappedCount(db: Database, rows: SQL): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, cappedCountQuery(rows));
  return Number(row?.count ?? 0);
}

/** `cappedCount`'s statement, `count` its one column. */
export function cappedCountQuery(rows: SQL): SQL {
  return sql`select count(*)::int as count from (${rows} limit ${COUNT_CAP + 1}) matches`;
}
