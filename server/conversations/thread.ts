/**
 * One thread as a party sees it: the newest 50 messages, quote cards and visit cards in the
 * order they were sent, one list by (created_at, seq) (or the 50 before a cursor, for 'Show
 * earlier messages'; each part read newest first from its index, migration 0045, decision 0057;
 * visits: migration 0055), the thread's next booked visit (its banner), the other party
 * and the gig, whether either blocked the other, and how far the other party has read. Opening
 * the newest page marks the thread read for its viewer.
 */
import { and, asc, desc, eq, gt, or, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { firstNameOrHandle, partyName, THREAD_PAGE_SIZE, type ThreadItem, type ThreadView } from "#core/messages.ts";
import type { Database, Transaction } from "../db/client.ts";
import { placeholder, preparedQuery } from "../db/prepared.ts";
import { blocks, diggerProfiles, gigs, leadPurchases, messageAttachments, messages, quotes, reviewWindows, threads, users, visitProposals, visits } from "../db/schema.ts";
import { emitRecord } from "../events/emit.ts";
import { decodeCursor, encodeCursor, exactTimestamp, TIMESTAMP_SEQ_CURSOR } from "../pagination.ts";
import type { ReaderTime } from "../reader-time.ts";
import { fullyRefunded } from "../reviews/gig-buyers.ts";
import { quoteStateOf, threadQuotePage } from "./thread-quotes.ts";
import { nextVisitView, threadVisitPage } from "./visits/thread-visits.ts";
import { confirmedAddress } from "../live/admission.ts";
import { notFound, type ThreadParty } from "./access.ts";
import { attachmentsOf } from "./attachments.ts";

/** The party's read mark columns. */
function readColumns(role: ThreadParty["role"]) {
  return role === "digger"
    ? { seq: threads.diggerReadSeq, at: threads.diggerReadAt, otherSeq: threads.clientReadSeq, otherAt: threads.clientReadAt }
    : { seq: threads.clientReadSeq, at: threads.clientReadAt, otherSeq: threads.diggerReadSeq, otherAt: threads.diggerReadAt };
}

/**
 * What the viewer's opening of the thread also records, in the read mark's transaction after
 * the mark, or null for nothing (view-thread.ts: the client's opening, issue 48).
 */
export type OnOpen = (party: ThreadParty) => ((tx: Transaction) => Promise<void>) | null;

/**
 * Marks every message of the thread read for this party; false when it already was. The other
 * party's open thread hears of it (their 'Read' under their last message) on the live stream.
 * `also` runs after the mark, in its transaction.
 */
async function markThreadRead(db: Database, party: ThreadParty, also: ((tx: Transaction) => Promise<void>) | null): Promise<boolean> {
  if (!also) return readMark(db, party);
  return db.transaction(async (tx) => {
    const marked = await readMark(tx, party);
    await also(tx);
    return marked;
  });
}

async function readMark(db: Database | Transaction, party: ThreadParty): Promise<boolean> {
  const mine = readColumns(party.role);
  const marked = await db
    .update(threads)
    .set(party.role === "digger" ? { diggerReadSeq: sql`${threads.lastMessageSeq}`, diggerReadAt: sql`now()` } : { clientReadSeq: sql`${threads.lastMessageSeq}`, clientReadAt: sql`now()` })
    .where(and(eq(threads.id, party.id), gt(threads.lastMessageSeq, mine.seq)))
    .returning({ id: threads.id });
  if (marked.length === 0) return false;
  await emitRecord(db, { kind: "thread.read", threadId: party.id, otherUserId: party.otherId });
  return true;
}

/** `time`: the reader's (server/reader-time.ts): each message's time as text in their zone; `onOpen`: see markThreadRead. */
export async function threadPage(db: Database, userId: string, threadId: string, cursorParam: string | null, time: ReaderTime, onOpen?: OnOpen): Promise<ThreadView> {
  return (await readThread(db, userId, threadId, cursorParam, time, onOpen)).thread;
}

/**
 * A page of a thread's messages, newest first, from a cursor (`before`) or not: prepared
 * (server/db/prepared.ts, issue 52), one step down the thread's index a page.
 */
const threadMessageRows = preparedQuery("thread_messages", (db, shape: { before: boolean }) =>
  db
    .select({
      id: messages.id,
      seq: messages.seq,
      senderId: messages.senderId,
      body: messages.body,
      hidden: sql<boolean>`${messages.hiddenAt} is not null`,
      deleted: sql<boolean>`${messages.deletedAt} is not null`,
      createdAt: exactTimestamp(messages.createdAt),
      // Spelled out: a one-table select writes its columns unqualified, which here would name the attachment's.
      hasFiles: sql<boolean>`exists (select 1 from ${messageAttachments} a where a.message_id = ${sql.identifier("messages")}.id)`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.threadId, placeholder("threadId")),
        shape.before ? sql`(${messages.createdAt}, ${messages.seq}) < (${placeholder("beforeAt")}::timestamptz, ${placeholder("beforeSeq")}::bigint)` : undefined,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(placeholder("limit")),
);

/**
 * The thread's head for its reader (readThread): one prepared statement (issue 52), the party
 * check in its WHERE.
 */
const threadHead = preparedQuery("thread_head", (db) => {
  const t = threads;
  const userId = placeholder("userId");
  const other = sql<string>`(case when ${t.diggerUserId} = ${userId} then ${t.clientId} else ${t.diggerUserId} end)`;
  const amDigger = sql`${t.diggerUserId} = ${userId}`;
  const next = db
    .select({ id: visits.id, startsAt: exactTimestamp(visits.startsAt).as("next_visit_starts_at"), windowMinutes: sql<number>`${visits.windowMinutes}`.as("next_visit_window") })
    .from(visits)
    .where(and(eq(visits.threadId, t.id), eq(visits.status, "booked"), gt(visits.endsAt, sql`${placeholder("now")}::timestamptz`)))
    .orderBy(asc(visits.startsAt))
    .limit(1)
    .as("next_visit");
  return db
    .select({
      diggerUserId: t.diggerUserId,
      clientId: t.clientId,
      // The reader's own mark behind the thread's last message: opening the newest page marks it.
      unread: sql<boolean>`${t.lastMessageSeq} > (case when ${amDigger} then ${t.diggerReadSeq} else ${t.clientReadSeq} end)`,
      gigId: gigs.id,
      gigTitle: gigs.title,
      gigStatus: gigs.status,
      gigFilled: sql<boolean>`${gigs.filledAt} is not null`,
      gigOpenForMore: gigs.openForMore,
      otherName: users.name,
      otherDeletedAt: users.deletedAt,
      handle: diggerProfiles.handle,
      profileId: diggerProfiles.id,
      otherReadSeq: sql<number>`(case when ${amDigger} then ${t.clientReadSeq} else ${t.diggerReadSeq} end)`.mapWith(Number),
      otherReadAt: exactTimestamp(sql`(case when ${amDigger} then ${t.clientReadAt} else ${t.diggerReadAt} end)`),
      iBlocked: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${userId} and ${blocks.blockedId} = ${other})`,
      blockedMe: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${other} and ${blocks.blockedId} = ${userId})`,
      meSuspended: sql<boolean>`exists (select 1 from ${users} me where me.id = ${userId} and me.suspended_at is not null)`,
      // server/live/admission.ts's rule: a confirmed address and a thread (this one).
      live: confirmedAddress(userId),
      refunded: fullyRefunded,
      purchaseId: leadPurchases.id,
      // The digger's Review {first name} (issue 51): the lead's review window, by its key.
      reviewWindow: sql<boolean>`exists (select 1 from ${reviewWindows} where ${reviewWindows.gigId} = ${leadPurchases.gigId} and ${reviewWindows.diggerId} = ${leadPurchases.diggerId} and ${reviewWindows.closedAt} is null)`,
      quoteState: quoteStateOf(t.id, gigs.id),
      hasQuotes: sql<boolean>`exists (select 1 from ${quotes} where ${quotes.threadId} = ${t.id})`,
      hasProposals: sql<boolean>`exists (select 1 from ${visitProposals} where ${visitProposals.threadId} = ${t.id})`,
      nextVisitId: next.id,
      nextVisitStartsAt: next.startsAt,
      nextVisitWindow: next.windowMinutes,
    })
    .from(t)
    .innerJoin(leadPurchases, eq(leadPurchases.id, t.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .leftJoin(users, eq(users.id, other))
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, t.diggerUserId))
    .leftJoinLateral(next, sql`true`)
    .where(and(eq(t.id, placeholder("threadId")), or(eq(t.diggerUserId, userId), eq(t.clientId, userId))));
});

/**
 * The thread page's data (threadPage), with what its forms need beside it (view-thread.ts): the
 * quote forms' state and whether the reader may hold live streams. The thread's head is one
 * query (the party check, the gig, the other party, blocks, the read marks, the next visit, the
 * quote state, and whether the thread has quotes or visit proposals at all); then the page's
 * messages, and only when there are any, its quotes, visits and files: a thread of messages alone
 * is two queries (and the read mark's write when it was unread).
 */
export async function readThread(db: Database, userId: string, threadId: string, cursorParam: string | null, time: ReaderTime, onOpen?: OnOpen) {
  if (!isUuid(threadId)) throw notFound();
  const before = decodeCursor(cursorParam, TIMESTAMP_SEQ_CURSOR);
  const [head] = await threadHead(db, undefined, { userId, threadId, now: time.now.toISOString() });
  if (!head) throw notFound();
  const role = head.diggerUserId === userId ? "digger" : "client";
  const party: ThreadParty = { id: threadId, role, userId, otherId: role === "digger" ? head.clientId : head.diggerUserId };
  // The newest page marks the thread read: written only when it was unread, or when the opening
  // records more (the client's, view-thread.ts).
  const also = before ? null : (onOpen?.(party) ?? null);
  const markedRead = before ? false : also || head.unread ? await markThreadRead(db, party, also) : false;
  const rows = await threadMessageRows(
    db,
    { before: before !== null },
    { threadId: party.id, beforeAt: before?.[0], beforeSeq: before?.[1], limit: THREAD_PAGE_SIZE + 1 },
  );
  const quoteRows = head.hasQuotes ? await threadQuotePage(db, party.id, before, THREAD_PAGE_SIZE + 1) : [];
  const otherParty = {
    role: party.role === "digger" ? ("client" as const) : ("digger" as const),
    deleted: head.otherName === null || head.otherDeletedAt !== null,
    handle: head.handle,
    fullName: head.otherName,
  };
  // Visits are arranged by two parties who may still talk, on a lead not refunded in full (issue 50).
  const mayArrange = !otherParty.deleted && !head.meSuspended && !head.iBlocked && !head.blockedMe && !head.refunded;
  const visitReader = { role: party.role, otherName: partyName(otherParty), time, mayArrange };
  const visitRows = head.hasProposals ? await threadVisitPage(db, party.id, before, THREAD_PAGE_SIZE + 1, visitReader) : [];
  // The three parts merged newest first; the page is the newest 50 of them, shown oldest first.
  type Entry = { at: string; seq: number } & (
    | { message: (typeof rows)[number]; quote: null; visit: null }
    | { message: null; quote: (typeof quoteRows)[number]; visit: null }
    | { message: null; quote: null; visit: (typeof visitRows)[number] }
  );
  const newestFirst: Entry[] = [
    ...rows.map((row) => ({ at: row.createdAt, seq: row.seq, message: row, quote: null, visit: null })),
    ...quoteRows.map((quote) => ({ at: quote.at, seq: quote.seq, message: null, quote, visit: null })),
    ...visitRows.map((visit) => ({ at: visit.at, seq: visit.seq, message: null, quote: null, visit })),
  ].sort((a, b) => (a.at === b.at ? b.seq - a.seq : a.at < b.at ? 1 : -1));
  const shown = newestFirst.slice(0, THREAD_PAGE_SIZE).reverse();
  const shownMessages = shown.flatMap((item) => (item.message ? [item.message] : []));
  const files = await attachmentsOf(db, shownMessages.filter((row) => row.hasFiles && !row.deleted && !row.hidden).map((row) => row.id));
  const thread: ThreadView = {
    id: party.id,
    role: party.role,
    otherName: partyName(otherParty),
    otherFirstName: firstNameOrHandle(otherParty),
    gigTitle: head.gigTitle,
    gigId: head.gigId,
    gig: { id: head.gigId, status: head.gigStatus, filled: Boolean(head.gigFilled), openForMore: Boolean(head.gigOpenForMore) },
    // The client's way to the digger's public profile (a client has none).
    otherProfileId: party.role === "client" && !otherParty.deleted ? (head.profileId ?? null) : null,
    items: shown.map((item): ThreadItem => {
      if (item.quote) {
        const { at: _at, seq: _seq, ...quote } = item.quote;
        return { kind: "quote", quote };
      }
      if (item.visit) {
        const { at: _at, seq: _seq, ...visit } = item.visit;
        return { kind: "visit", visit };
      }
      const row = item.message;
      const state = row.deleted ? "deleted" : row.hidden ? "hidden" : "shown";
      return {
        kind: "message",
        message: { id: row.id, seq: row.seq, mine: row.senderId === userId, body: state === "shown" ? row.body : "", state, createdAt: row.createdAt, createdText: time.dateTime(row.createdAt), attachments: files.get(row.id) ?? [] },
      };
    }),
    nextVisit:
      head.nextVisitId && head.nextVisitStartsAt
        ? nextVisitView({ id: head.nextVisitId, startsAt: new Date(head.nextVisitStartsAt), windowMinutes: head.nextVisitWindow }, time)
        : null,
    visitsAllowed: mayArrange,
    earlierCursor: newestFirst.length > THREAD_PAGE_SIZE && shown[0] ? encodeCursor([shown[0].at, shown[0].seq]) : null,
    readByOther: head.otherReadSeq > 0 && head.otherReadAt ? { seq: head.otherReadSeq, at: head.otherReadAt, text: time.dateTime(head.otherReadAt) } : null,
    iBlocked: Boolean(head.iBlocked),
    blockedMe: Boolean(head.blockedMe),
    canSend: !otherParty.deleted && !head.meSuspended && !head.iBlocked && !head.blockedMe,
    markedRead,
    // The digger's entry to their review of the client (issue 51); the client never has one.
    clientReview:
      party.role === "digger" && head.reviewWindow && !otherParty.deleted ? { purchaseId: head.purchaseId, firstName: firstNameOrHandle(otherParty) } : null,
  };
  return { thread, quoteState: head.quoteState, live: Boolean(head.live) };
}
