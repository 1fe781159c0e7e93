/**
 * One thread as a party sees it: the newest 50 messages, quote cards and visit cards in the
 * order they were sent, one list by (created_at, seq) (or the 50 before a cursor, for 'Show
 * earlier messages'; each part read newest first from its index, migration 0045, decision 0057;
 * visits: migration 0055), the thread's next booked visit (its banner), the other party
 * and the gig, whether either blocked the other, and how far the other party has read. Opening
 * the newest page marks the thread read for its viewer.
 */
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { firstNameOrHandle, partyName, THREAD_PAGE_SIZE, type ThreadItem, type ThreadView } from "#core/messages.ts";
import type { Database, Transaction } from "../db/client.ts";
import { blocks, diggerProfiles, gigs, leadPurchases, messages, reviewWindows, threads, users } from "../db/schema.ts";
import { emitRecord } from "../events/emit.ts";
import { decodeCursor, encodeCursor, exactTimestamp, TIMESTAMP_SEQ_CURSOR } from "../pagination.ts";
import type { ReaderTime } from "../reader-time.ts";
import { fullyRefunded } from "../reviews/gig-buyers.ts";
import { threadQuotePage } from "./thread-quotes.ts";
import { nextVisit, threadVisitPage } from "./visits/thread-visits.ts";
import { threadParty, type ThreadParty } from "./access.ts";
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
  const party = await threadParty(db, userId, threadId);
  const before = decodeCursor(cursorParam, TIMESTAMP_SEQ_CURSOR);
  const markedRead = before ? false : await markThreadRead(db, party, onOpen?.(party) ?? null);
  const columns = readColumns(party.role);
  const other = party.otherId;
  const [head] = await db
    .select({
      gigId: gigs.id,
      gigTitle: gigs.title,
      gigStatus: gigs.status,
      gigFilled: sql<boolean>`${gigs.filledAt} is not null`,
      gigOpenForMore: gigs.openForMore,
      otherName: users.name,
      otherDeletedAt: users.deletedAt,
      handle: diggerProfiles.handle,
      profileId: diggerProfiles.id,
      otherReadSeq: columns.otherSeq,
      otherReadAt: exactTimestamp(columns.otherAt),
      iBlocked: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${userId} and ${blocks.blockedId} = ${other})`,
      blockedMe: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${other} and ${blocks.blockedId} = ${userId})`,
      meSuspended: sql<boolean>`exists (select 1 from ${users} me where me.id = ${userId} and me.suspended_at is not null)`,
      refunded: fullyRefunded,
      purchaseId: leadPurchases.id,
      // The digger's Review {first name} (issue 51): the lead's review window, by its key.
      reviewWindow: sql<boolean>`exists (select 1 from ${reviewWindows} where ${reviewWindows.gigId} = ${leadPurchases.gigId} and ${reviewWindows.diggerId} = ${leadPurchases.diggerId} and ${reviewWindows.closedAt} is null)`,
    })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .leftJoin(users, eq(users.id, other))
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, threads.diggerUserId))
    .where(eq(threads.id, party.id));
  const rows = await db
    .select({
      id: messages.id,
      seq: messages.seq,
      senderId: messages.senderId,
      body: messages.body,
      hidden: sql<boolean>`${messages.hiddenAt} is not null`,
      deleted: sql<boolean>`${messages.deletedAt} is not null`,
      createdAt: exactTimestamp(messages.createdAt),
    })
    .from(messages)
    .where(and(eq(messages.threadId, party.id), before ? sql`(${messages.createdAt}, ${messages.seq}) < (${before[0]}::timestamptz, ${before[1]}::bigint)` : undefined))
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(THREAD_PAGE_SIZE + 1);
  const quoteRows = await threadQuotePage(db, party.id, before, THREAD_PAGE_SIZE + 1);
  const otherParty = {
    role: party.role === "digger" ? ("client" as const) : ("digger" as const),
    deleted: !head || head.otherName === null || head.otherDeletedAt !== null,
    handle: head?.handle ?? null,
    fullName: head?.otherName ?? null,
  };
  // Visits are arranged by two parties who may still talk, on a lead not refunded in full (issue 50).
  const mayArrange = Boolean(head) && !otherParty.deleted && !head?.meSuspended && !head?.iBlocked && !head?.blockedMe && !head?.refunded;
  const visitReader = { role: party.role, otherName: partyName(otherParty), time, mayArrange };
  const visitRows = await threadVisitPage(db, party.id, before, THREAD_PAGE_SIZE + 1, visitReader);
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
  const files = await attachmentsOf(db, shownMessages.filter((row) => !row.deleted && !row.hidden).map((row) => row.id));
  return {
    id: party.id,
    role: party.role,
    otherName: partyName(otherParty),
    otherFirstName: firstNameOrHandle(otherParty),
    gigTitle: head?.gigTitle ?? "",
    gigId: head?.gigId ?? "",
    gig: { id: head?.gigId ?? "", status: head?.gigStatus ?? "closed", filled: Boolean(head?.gigFilled), openForMore: Boolean(head?.gigOpenForMore) },
    // The client's way to the digger's public profile (a client has none).
    otherProfileId: party.role === "client" && !otherParty.deleted ? (head?.profileId ?? null) : null,
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
    nextVisit: await nextVisit(db, party.id, time),
    visitsAllowed: mayArrange,
    earlierCursor: newestFirst.length > THREAD_PAGE_SIZE && shown[0] ? encodeCursor([shown[0].at, shown[0].seq]) : null,
    readByOther: head && head.otherReadSeq > 0 && head.otherReadAt ? { seq: head.otherReadSeq, at: head.otherReadAt, text: time.dateTime(head.otherReadAt) } : null,
    iBlocked: Boolean(head?.iBlocked),
    blockedMe: Boolean(head?.blockedMe),
    canSend: !otherParty.deleted && !head?.meSuspended && !head?.iBlocked && !head?.blockedMe,
    markedRead,
    // The digger's entry to their review of the client (issue 51); the client never has one.
    clientReview:
      party.role === "digger" && head?.reviewWindow && !otherParty.deleted ? { purchaseId: head.purchaseId, firstName: firstNameOrHandle(otherParty) } : null,
  };
}
