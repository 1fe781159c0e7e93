/**
 * /notifications, the page: the signed-in user's own notifications, newest first a page at a
 * time, and the unread count. Every query is bounded by the user's id (the access rule gives
 * it): nobody reads another's.
 */
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { NotificationEntry, NotificationItem } from "#core/bell.ts";
import type { Database } from "../db/client.ts";
import { placeholder, preparedQuery } from "../db/prepared.ts";
import { notifications } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { NOTIFICATIONS } from "./access.ts";

/** Counted up to this, shown as "99+": a count of thousands costs more and says no more. */
export const UNREAD_COUNT_CAP = 100;

/** The user's notifications under another name, so that a count of them inside the page's statement reads them, not its rows. */
const unreadNotifications = alias(notifications, "unread_notifications");

/** The user's unread notifications, at most UNREAD_COUNT_CAP of them, from the partial index: counted by the caller. */
function unreadOf(db: Database) {
  const u = unreadNotifications;
  return db
    .select({ id: u.id })
    .from(u)
    .where(and(eq(u.userId, placeholder("userId")), isNull(u.readAt)))
    .limit(UNREAD_COUNT_CAP)
    .as("unread");
}

/** How many of the user's notifications are unread (at most UNREAD_COUNT_CAP). */
const unreadRows = preparedQuery("notifications_unread", (db) => db.select({ n: count() }).from(unreadOf(db)));

async function unreadCount(db: Database, userId: string): Promise<number> {
  const [row] = await unreadRows(db, undefined, { userId });
  return row?.n ?? 0;
}

/**
 * The page's statement, with or without a cursor. Each row also carries the unread count (a
 * subquery PostgreSQL runs once for the statement): the page and its count in one round trip.
 */
const notificationRows = preparedQuery("notifications_page", (db, shape: { cursor: boolean }) => {
  const n = notifications;
  return db
    .select({
      id: n.id,
      kind: n.kind,
      text: n.text,
      link: n.link,
      createdAt: exactTimestamp(n.createdAt),
      read: sql<boolean>`${n.readAt} is not null`,
      unread: sql<number>`${db.select({ n: count() }).from(unreadOf(db))}`.mapWith(Number),
    })
    .from(n)
    .where(
      and(
        eq(n.userId, placeholder("userId")),
        shape.cursor ? sql`(${n.createdAt}, ${n.id}) < (${placeholder("afterAt")}::timestamptz, ${placeholder("afterId")}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(n.createdAt), desc(n.id))
    .limit(PAGE_SIZE + 1);
});

/**
 * A page of the user's notifications, newest first, and the unread count: from the page's rows,
 * or, for a page past the last one, counted apart (the first page of someone with none has none).
 */
export async function notificationsPage(db: Database, userId: string, cursor: string | null): Promise<{ page: Page<NotificationItem>; unread: number }> {
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const rows = await notificationRows(db, { cursor: after !== null }, { userId, afterAt: after?.[0], afterId: after?.[1] });
  const unread = rows[0]?.unread ?? (after ? await unreadCount(db, userId) : 0);
  // Each field named (decision 0066: a copy by spread is slow, and a new hidden class, a row).
  const page = toPage<NotificationItem>(
    rows.map((row) => ({ id: row.id, kind: row.kind, text: row.text, link: row.link, createdAt: row.createdAt, read: row.read })),
    PAGE_SIZE,
    (row) => [row.createdAt, row.id],
  );
  return { page, unread };
}

/** /notifications, the page: the signed-in user's notifications, a page at a time, their times in the reader's zone. */
export const notificationsView = defineOperation({
  access: NOTIFICATIONS,
  async run({ services, user, url }): Promise<{ page: Page<NotificationEntry>; unread: number }> {
    const { page, unread } = await notificationsPage(services.db, user.id, url.searchParams.get("cursor"));
    const time = readerTime(user.timeZone, services.config);
    const items = page.items.map(
      (item): NotificationEntry => ({
        id: item.id,
        kind: item.kind,
        text: item.text,
        link: item.link,
        createdAt: item.createdAt,
        read: item.read,
        createdAtText: time.list(item.createdAt),
        createdAtTitle: time.dateTime(item.createdAt),
      }),
    );
    return { page: { ...page, items }, unread };
  },
});
