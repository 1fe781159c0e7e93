/**
 * /messages: the signed-in user's threads (as digger or as client), by latest activity, 20 a
 * page (keyset on last activity and id), each with the other party, a subtitle for its reader,
 * the thread's last event (issue 47: the last message's first line, or the newest quote's news
 * when it came later) and whether it is unread. Both halves read their party's inbox index; each
 * row's last message and newest quote are one step down their thread's index (no query per row).
 */
import { sql } from "drizzle-orm";
import { firstLine, firstNameOrHandle, inboxSubtitle, MESSAGE_TEXTS, partyName, quoteEventText, type InboxThread } from "#core/messages.ts";
import type { Database } from "../db/client.ts";
import { placeholder, preparedRows } from "../db/prepared.ts";
import { confirmedAddress, mayHoldLiveStreams } from "../live/admission.ts";
import { diggerProfiles, gigs, leadPurchases, messages, quotes, threads, users } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import type { ReaderTime } from "../reader-time.ts";
import { quotePrice } from "./quote-price.ts";

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
  mine: boolean | null;
  quote_status: "open" | "withdrawn" | "replaced" | "accepted" | "declined" | "not_chosen" | null;
  quote_revised: boolean | null;
  quote_later: boolean;
  type: "fixed" | "hourly" | "estimate";
  amount_cents: number | null;
  rate_cents: number | null;
  hours: string | null;
  low_cents: number | null;
  high_cents: number | null;
  live: boolean;
}

/** The text a message shows in place of its own once hidden or deleted. */
export function shownText(message: { body: string; hidden: boolean; deleted: boolean }): string {
  if (message.deleted) return MESSAGE_TEXTS.deletedMessage;
  if (message.hidden) return MESSAGE_TEXTS.removed;
  return message.body;
}

/**
 * The page's one statement (prepared, server/db/prepared.ts, issue 52): built once per shape
 * (after a cursor or not), parsed and planned by PostgreSQL once per connection. Each row also
 * says whether its reader may hold live streams (server/live/admission.ts's rule: a confirmed
 * address and a thread, which a row is).
 */
const inboxRows = preparedRows<Row, { after: boolean }>("inbox_page", ({ after }) => {
  const t = threads;
  const userId = placeholder("userId");
  const half = (party: typeof t.diggerUserId | typeof t.clientId) =>
    sql`(select ${t.id} as id, ${t.purchaseId} as purchase_id, ${t.diggerUserId} as digger_user_id, ${t.clientId} as client_id,
                ${t.lastActivityAt} as last_activity_at, ${t.lastMessageSeq} as last_message_seq,
                ${t.diggerReadSeq} as digger_read_seq, ${t.clientReadSeq} as client_read_seq
         from ${t} where ${party} = ${userId}
         ${after ? sql`and (${t.lastActivityAt}, ${t.id}) < (${placeholder("afterAt")}::timestamptz, ${placeholder("afterId")}::uuid)` : sql``}
         order by ${t.lastActivityAt} desc, ${t.id} desc limit ${PAGE_SIZE + 1})`;
  return sql`select mine.id, ${exactTimestamp(sql`mine.last_activity_at`)} as last_activity_at,
               mine.last_message_seq > (case when mine.digger_user_id = ${userId} then mine.digger_read_seq else mine.client_read_seq end) as unread,
               g.title as gig_title,
               case when mine.digger_user_id = ${userId} then 'client' else 'digger' end as other_role,
               ou.full_name as other_name, (ou.id is null or ou.deleted_at is not null) as other_deleted,
               dp.handle, last.body, last.hidden, last.deleted, last.mine, last.message_at,
               q.status as quote_status, q.revised as quote_revised,
               (q.status is not null and (last.message_at is null or q.quote_at >= last.message_at)) as quote_later,
               q.type, q.amount_cents, q.rate_cents, q.hours, q.low_cents, q.high_cents,
               ${confirmedAddress(userId)} as live
        from (${half(t.diggerUserId)} union all ${half(t.clientId)}) mine
        join ${leadPurchases} p on p.id = mine.purchase_id
        join ${gigs} g on g.id = p.gig_id
        left join ${users} ou on ou.id = case when mine.digger_user_id = ${userId} then mine.client_id else mine.digger_user_id end
        left join ${diggerProfiles} dp on dp.user_id = mine.digger_user_id
        left join lateral (
          select m.body, m.hidden_at is not null as hidden, m.deleted_at is not null as deleted,
                 m.sender_id = ${userId} as mine, m.created_at as message_at
          from ${messages} m where m.thread_id = mine.id order by m.seq desc limit 1
        ) last on true
        left join lateral (
          -- The thread's newest quote carries its latest quote event: a thread holds one open
          -- quote at a time, and every older one was decided before it was sent.
          select q.status, q.replaces_id is not null as revised, coalesce(q.decided_at, q.created_at) as quote_at,
                 q.type, q.amount_cents, q.rate_cents, q.hours, q.low_cents, q.high_cents
          from ${quotes} q where q.thread_id = mine.id order by q.created_at desc, q.seq desc limit 1
        ) q on true
        order by mine.last_activity_at desc, mine.id desc
        limit ${PAGE_SIZE + 1}`;
});

/**
 * A page of the inbox and whether its reader may hold live streams. `time`: the reader's
 * (server/reader-time.ts): each row's time as a list's text.
 */
export async function readInbox(db: Database, userId: string, cursorParam: string | null, time: ReaderTime): Promise<{ page: Page<InboxThread>; live: boolean }> {
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  const rows = await inboxRows(db, { after: cursor !== null }, { userId, afterAt: cursor?.[0], afterId: cursor?.[1] });
  const page = toPage(rows, PAGE_SIZE, (row) => [row.last_activity_at, row.id]);
  // No row: no thread at all on the first page, so no stream; past the last page, asked apart.
  const live = rows[0] ? rows[0].live : cursor !== null && (await mayHoldLiveStreams(db, userId));
  return {
    live,
    page: {
      nextCursor: page.nextCursor,
      items: page.items.map((row) => {
        const other = { role: row.other_role, deleted: row.other_deleted, handle: row.handle, fullName: row.other_name };
        return {
          id: row.id,
          otherName: partyName(other),
          gigTitle: row.gig_title,
          subtitle: inboxSubtitle(other, firstNameOrHandle(other), row.gig_title),
          lastEvent: lastEvent(row),
          lastActivityAt: row.last_activity_at,
          lastActivityText: time.list(row.last_activity_at),
          unread: row.unread,
        };
      }),
    },
  };
}

/** The thread's last event: the newest quote's news when it came after the last message, else that message's first line ('You: ' when mine). */
function lastEvent(row: Row): string | null {
  if (row.quote_later && row.quote_status) {
    return quoteEventText(row.quote_status, Boolean(row.quote_revised), quotePrice({ type: row.type, amountCents: row.amount_cents, rateCents: row.rate_cents, hours: row.hours, lowCents: row.low_cents, highCents: row.high_cents }));
  }
  if (row.body === null) return null;
  const line = firstLine(shownText({ body: row.body, hidden: Boolean(row.hidden), deleted: Boolean(row.deleted) }));
  return row.mine ? `${MESSAGE_TEXTS.you}${line}` : line;
}
