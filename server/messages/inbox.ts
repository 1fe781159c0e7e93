/**
 * /messages: the signed-in user's threads (as digger or as client), by latest activity, 20 a
 * page (keyset on last activity and id), each with the other party, the gig, the last message's
 * first line and whether it is unread. Both halves read their party's inbox index.
 */
import { sql } from "drizzle-orm";
import { firstLine, MESSAGE_TEXTS, partyName, type InboxThread } from "#core/messages.ts";
import { queryRows, type Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases, messages, threads, users } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";

interface Row {
  id: string;
  last_activity_at: string;
  unread: boolean;
  gig_title: string;
  other_role: "digger" | "client";
  other_name: string | null;
  other_deleted: boolean;
  handle: string | null;
  body: string | null;
  hidden: boolean | null;
  deleted: boolean | null;
}

/** The text a message shows in place of its own once hidden or deleted. */
export function shownText(message: { body: string; hidden: boolean; deleted: boolean }): string {
  if (message.deleted) return MESSAGE_TEXTS.deletedMessage;
  if (message.hidden) return MESSAGE_TEXTS.removed;
  return message.body;
}

export async function inboxPage(db: Database, userId: string, cursorParam: string | null): Promise<Page<InboxThread>> {
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  const t = threads;
  const after = cursor ? sql`and (${t.lastActivityAt}, ${t.id}) < (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)` : sql``;
  const half = (party: typeof t.diggerUserId | typeof t.clientId) =>
    sql`(select ${t.id} as id, ${t.purchaseId} as purchase_id, ${t.diggerUserId} as digger_user_id, ${t.clientId} as client_id,
                ${t.lastActivityAt} as last_activity_at, ${t.lastMessageSeq} as last_message_seq,
                ${t.diggerReadSeq} as digger_read_seq, ${t.clientReadSeq} as client_read_seq
         from ${t} where ${party} = ${userId} ${after}
         order by ${t.lastActivityAt} desc, ${t.id} desc limit ${PAGE_SIZE + 1})`;
  const rows = await queryRows<Row>(
    db,
    sql`select mine.id, ${exactTimestamp(sql`mine.last_activity_at`)} as last_activity_at,
               mine.last_message_seq > (case when mine.digger_user_id = ${userId} then mine.digger_read_seq else mine.client_read_seq end) as unread,
               g.title as gig_title,
               case when mine.digger_user_id = ${userId} then 'client' else 'digger' end as other_role,
               ou.full_name as other_name, (ou.id is null or ou.deleted_at is not null) as other_deleted,
               dp.handle, last.body, last.hidden, last.deleted
        from (${half(t.diggerUserId)} union all ${half(t.clientId)}) mine
        join ${leadPurchases} p on p.id = mine.purchase_id
        join ${gigs} g on g.id = p.gig_id
        left join ${users} ou on ou.id = case when mine.digger_user_id = ${userId} then mine.client_id else mine.digger_user_id end
        left join ${diggerProfiles} dp on dp.user_id = mine.digger_user_id
        left join lateral (
          select m.body, m.hidden_at is not null as hidden, m.deleted_at is not null as deleted
          from ${messages} m where m.thread_id = mine.id order by m.seq desc limit 1
        ) last on true
        order by mine.last_activity_at desc, mine.id desc
        limit ${PAGE_SIZE + 1}`,
  );
  const page = toPage(rows, PAGE_SIZE, (row) => [row.last_activity_at, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      id: row.id,
      otherName: partyName({ role: row.other_role, deleted: row.other_deleted, handle: row.handle, fullName: row.other_name }),
      gigTitle: row.gig_title,
      lastLine: row.body === null ? null : firstLine(shownText({ body: row.body, hidden: Boolean(row.hidden), deleted: Boolean(row.deleted) })),
      lastActivityAt: row.last_activity_at,
      unread: row.unread,
    })),
  };
}
