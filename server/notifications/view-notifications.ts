/**
 * /notifications, the page: the signed-in user's own notifications, newest first a page at a
 * time, and the unread count. Every query is bounded by the user's id (the access rule gives
 * it): nobody reads another's.
 */
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { NotificationEntry, NotificationItem } from "#core/bell.ts";
import type { Database } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { NOTIFICATIONS } from "./access.ts";

/** Counted up to this, shown as "99+": a count of thousands costs more and says no more. */
export const UNREAD_COUNT_CAP = 100;

/** How many of the user's notifications are unread (at most UNREAD_COUNT_CAP), from the partial index. */
async function unreadCount(db: Database, userId: string): Promise<number> {
  const unread = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .limit(UNREAD_COUNT_CAP)
    .as("unread");
  const [row] = await db.select({ n: count() }).from(unread);
  return row?.n ?? 0;
}

/** A page of the user's notifications, newest first, and the unread count. */
export async function notificationsPage(db: Database, userId: string, cursor: string | null): Promise<{ page: Page<NotificationItem>; unread: number }> {
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const n = notifications;
  const rows = await db
    .select({ id: n.id, kind: n.kind, text: n.text, link: n.link, createdAt: exactTimestamp(n.createdAt), read: sql<boolean>`${n.readAt} is not null` })
    .from(n)
    .where(
      and(
        eq(n.userId, userId),
        after ? sql`(${n.createdAt}, ${n.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(n.createdAt), desc(n.id))
    .limit(PAGE_SIZE + 1);
  const [page, unread] = await Promise.all([toPage<NotificationItem>(rows, PAGE_SIZE, (row) => [row.createdAt, row.id]), unreadCount(db, userId)]);
  return { page, unread };
}

/** /notifications, the page: the signed-in user's notifications, a page at a time, their times in the reader's zone. */
export const notificationsView = defineOperation({
  access: NOTIFICATIONS,
  async run({ services, user, url }): Promise<{ page: Page<NotificationEntry>; unread: number }> {
    const { page, unread } = await notificationsPage(services.db, user.id, url.searchParams.get("cursor"));
    const time = readerTime(user.timeZone, services.config);
    const items = page.items.map((item) => ({ ...item, createdAtText: time.list(item.createdAt), createdAtTitle: time.dateTime(item.createdAt) }));
    return { page: { ...page, items }, unread };
  },
});
