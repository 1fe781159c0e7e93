import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** The longest search text we look for; longer input is cut, not refused. */
export const SEARCH_MAX_LENGTH = 100;

/**
 * Case-insensitive "contains" on any of the columns, served by their pg_trgm indexes.
 * The user's text is matched literally: %, _ and \ lose their LIKE meaning.
 */
export function containsAny(columns: AnyPgColumn[], term: string): SQL {
  const pattern = `%${term.slice(0, SEARCH_MAX_LENGTH).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql.join(
    columns.map((column) => sql`${column} ilike ${pattern}`),
    sql` or `,
  );
}
