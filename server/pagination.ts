/**
 * Keyset pagination: a page ends with a cursor naming its last row's sort values, and the
 * next page starts strictly after them. Unlike OFFSET, the cost does not grow with the page
 * number, and rows added meanwhile never shift a page (nothing repeated, nothing skipped).
 */
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

export const PAGE_SIZE = 20;

/**
 * A timestamp as ISO text with its microseconds. PostgreSQL keeps microseconds and a
 * JavaScript Date only milliseconds: a cursor built from a Date could skip rows at a page
 * boundary, so a cursor holds the database's own value.
 */
export function exactTimestamp(column: AnyPgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export interface Page<T> {
  items: T[];
  /** Opaque; pass back as `?cursor=` for the next page. Null on the last page. */
  nextCursor: string | null;
}

export function encodeCursor(values: Array<string | number | null>): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** The cursor's values, or null when it is missing or malformed (then: the first page). */
export function decodeCursor(cursor: string | null | undefined, arity: number): Array<string | number | null> | null {
  if (!cursor || cursor.length > 512) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(values) || values.length !== arity) return null;
    if (!values.every((v) => v === null || typeof v === "string" || typeof v === "number")) return null;
    return values as Array<string | number | null>;
  } catch {
    return null;
  }
}

/** Splits a query that fetched `size + 1` rows into a page and its next cursor. */
export function toPage<T>(rows: T[], size: number, cursorOf: (row: T) => Array<string | number | null>): Page<T> {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > size && last ? encodeCursor(cursorOf(last)) : null };
}
