/**
 * The top bar's two counts in one query: unread notifications (the bell) and unread threads
 * (Messages), each capped like the bell's, each from its partial index. The root loader reads
 * both with this one statement on every page.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client.ts";
import { notifications, threads } from "../db/schema.ts";
import { UNREAD_COUNT_CAP } from "../notifications/bell.ts";

export interface UnreadCounts {
  notifications: number;
  threads: number;
}

export async function unreadCounts(db: Database, userId: string): Promise<UnreadCounts> {
  const [row] = await queryRows<{ notifications: number | string; threads: number | string }>(
    db,
    sql`select
      (select count(*) from (select 1 from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.readAt} is null limit ${UNREAD_COUNT_CAP}) n) as notifications,
      (select count(*) from (
        (select 1 from ${threads} where ${threads.diggerUserId} = ${userId} and ${threads.lastMessageSeq} > ${threads.diggerReadSeq} limit ${UNREAD_COUNT_CAP})
        union all
        (select 1 from ${threads} where ${threads.clientId} = ${userId} and ${threads.lastMessageSeq} > ${threads.clientReadSeq} limit ${UNREAD_COUNT_CAP})
      ) t) as threads`,
  );
  return { notifications: Number(row?.notifications ?? 0), threads: Math.min(Number(row?.threads ?? 0), UNREAD_COUNT_CAP) };
}
