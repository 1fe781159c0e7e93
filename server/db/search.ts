import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** The longest search text we look for; longer input is cut, not refused. */
export const SEARCH_MAX_LENGTH = 100;

/**
 * Case-insensitive "contains" on a lower-cased search column (`search_text` of gigs and
 * digger profiles, each served by its own pg_trgm index). The user's text is lower-cased by
 * PostgreSQL, as the column was, and matched literally: %, _ and \ lose their LIKE meaning.
 */
export function containsText(searchColumn: AnyPgColumn, term: string): SQL {
  const pattern = `%${term.slice(0, SEARCH_MAX_LENGTH).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${searchColumn} like lower(${pattern})`;
}
