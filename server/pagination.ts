/**
 * Keyset pagination: a page ends with a cursor naming its last row's sort values, and the
 * next page starts strictly after them. Unlike OFFSET, the cost does not grow with the page
 * number, and rows added meanwhile never shift a page (nothing repeated, nothing skipped).
 */
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { isUuid } from "#core/ids.ts";

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

/**
 * A timestamp as `exactTimestamp` writes it and PostgreSQL reads back: the exact shape, a real
 * date and time (no 30 February, no hour 24) and a year PostgreSQL has (not year 0).
 */
const cursorTimestamp = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
  .refine((text) => {
    const date = new Date(`${text.slice(0, 23)}Z`);
    return !text.startsWith("0000") && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === text.slice(0, 19);
  });
export const CURSOR_UUID = z.string().refine(isUuid);

/** `[created_at, uuid id]`, the cursor of most lists (newest or oldest first). */
export const TIMESTAMP_UUID_CURSOR = z.tuple([cursorTimestamp, CURSOR_UUID]);
/** `[created_at, seq]`: a list whose tie-breaker is the order rows were written in (the audit log). */
export const TIMESTAMP_SEQ_CURSOR = z.tuple([cursorTimestamp, z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)]);
/** `[part, timestamp, uuid id]`: a list in two parts, each in its own order (/visits: upcoming soonest first, then past latest first). */
export const PART_TIMESTAMP_UUID_CURSOR = z.tuple([z.union([z.literal(0), z.literal(1)]), cursorTimestamp, CURSOR_UUID]);
/** `[created_at, Better Auth user id]` (users: text ids, never a NUL PostgreSQL could not take). */
export const TIMESTAMP_USER_ID_CURSOR = z.tuple([cursorTimestamp, z.string().regex(/^[\w-]{1,100}$/)]);

/**
 * The cursor's values, or null when it is missing or does not fit the list's cursor shape
 * (then: the first page). Every value reaches the query only once it has the type its column
 * casts it to, so no cursor a client writes makes the query fail (issue 30, finding 6).
 */
export function decodeCursor<T extends z.ZodType>(cursor: string | null | undefined, shape: T): z.infer<T> | null {
  if (!cursor || cursor.length > 512) return null;
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = shape.safeParse(values);
  return parsed.success ? parsed.data : null;
}

/** Splits a query that fetched `size + 1` rows into a page and its next cursor. */
export function toPage<T>(rows: T[], size: number, cursorOf: (row: T) => Array<string | number | null>): Page<T> {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > size && last ? encodeCursor(cursorOf(last)) : null };
}
