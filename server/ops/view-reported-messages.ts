/**
 * The console's Messages queue (issue 32): messages with open reports, the longest-waiting
 * first, each with every open report's reason and the thread around it (the three messages
 * before and after). This is the only place an operator reads a thread; its address stays the
 * 404 page for them; the reported message's attachments are shown (and served) to them. Hide /
 * Keep is moderate-message.ts.
 */
import { sql } from "drizzle-orm";
import type { MessageAttachmentView } from "#core/message-attachments.ts";
import { partyName } from "#core/messages.ts";
import { queryRows, type Database } from "../db/client.ts";
import { diggerProfiles, messageReports, messages, threads, users } from "../db/schema.ts";
import { attachmentsOf } from "../conversations/attachments.ts";
import { shownText } from "../conversations/inbox.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";

/** Messages shown around a reported one, on each side. */
const CONTEXT = 3;

interface ContextMessage {
  id: string;
  sender: string;
  text: string;
  createdAt: string;
  reported: boolean;
}

export interface ReportedMessage {
  id: string;
  threadId: string;
  firstReportedAt: string;
  reasons: string[];
  context: ContextMessage[];
  /** The reported message's attachments (served to operators because it was reported). */
  attachments: MessageAttachmentView[];
}

interface Row {
  id: string;
  thread_id: string;
  seq: string | number;
  first_reported: string;
  reasons: string[];
}

interface ContextRow {
  id: string;
  sender_id: string;
  body: string;
  hidden: boolean;
  deleted: boolean;
  created_at: string;
  digger_user_id: string;
  handle: string | null;
  full_name: string | null;
  sender_deleted: boolean;
}

async function reportedMessages(db: Database, cursorParam: string | null): Promise<Page<ReportedMessage>> {
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  const after = cursor ? sql`where (open.first_reported, open.message_id) > (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)` : sql``;
  const rows = await queryRows<Row>(
    db,
    sql`select m.id, m.thread_id, m.seq, ${exactTimestamp(sql`open.first_reported`)} as first_reported, open.reasons
        from (select ${messageReports.messageId} as message_id, min(${messageReports.createdAt}) as first_reported,
                     array_agg(${messageReports.reason} order by ${messageReports.createdAt}) as reasons
              from ${messageReports} where ${messageReports.resolvedAt} is null group by ${messageReports.messageId}) open
        join ${messages} m on m.id = open.message_id
        ${after}
        order by open.first_reported, open.message_id
        limit ${PAGE_SIZE + 1}`,
  );
  const page = toPage(rows, PAGE_SIZE, (row) => [row.first_reported, row.id]);
  const files = await attachmentsOf(db, page.items.map((row) => row.id));
  const items = await Promise.all(
    page.items.map(async (row) => ({
      id: row.id,
      threadId: row.thread_id,
      firstReportedAt: row.first_reported,
      reasons: row.reasons,
      context: await around(db, row.thread_id, Number(row.seq), row.id),
      attachments: files.get(row.id) ?? [],
    })),
  );
  return { nextCursor: page.nextCursor, items };
}

/** The reported message and up to CONTEXT messages on each side of it, oldest first. */
async function around(db: Database, threadId: string, seq: number, reportedId: string): Promise<ContextMessage[]> {
  const pick = sql`select m.id, m.sender_id, m.body, m.hidden_at is not null as hidden, m.deleted_at is not null as deleted,
                          ${exactTimestamp(sql`m.created_at`)} as created_at, m.seq from ${messages} m where m.thread_id = ${threadId}`;
  const rows = await queryRows<ContextRow>(
    db,
    sql`select c.id, c.sender_id, c.body, c.hidden, c.deleted, c.created_at, t.digger_user_id, dp.handle,
               u.full_name, (u.id is null or u.deleted_at is not null) as sender_deleted
        from ((${pick} and m.seq < ${seq} order by m.seq desc limit ${CONTEXT})
              union all (${pick} and m.seq >= ${seq} order by m.seq limit ${CONTEXT + 1})) c
        join ${threads} t on t.id = ${threadId}
        left join ${diggerProfiles} dp on dp.user_id = t.digger_user_id
        left join ${users} u on u.id = c.sender_id
        order by c.seq`,
  );
  return rows.map((row) => ({
    id: row.id,
    sender: partyName({
      role: row.sender_id === row.digger_user_id ? "digger" : "client",
      deleted: row.sender_deleted,
      handle: row.handle,
      fullName: row.full_name,
    }),
    text: shownText({ body: row.body, hidden: row.hidden, deleted: row.deleted }),
    createdAt: row.created_at,
    reported: row.id === reportedId,
  }));
}

/** The Messages section: a page of reported messages. */
export const reportedMessagesPage = defineOperation({
  access: operator,
  async run({ services, user, url }) {
    const page = await reportedMessages(services.db, url.searchParams.get("cursor"));
    // Times in the operator's zone (issue 47).
    const time = readerTime(user.timeZone, services.config);
    const items = page.items.map((item) => ({
      ...item,
      firstReportedText: time.date(item.firstReportedAt),
      context: item.context.map((message) => ({ ...message, createdAtText: time.dateTime(message.createdAt) })),
    }));
    return { page: { ...page, items } };
  },
});
