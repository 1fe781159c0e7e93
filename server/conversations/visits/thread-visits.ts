/**
 * The visit proposals of a thread as cards (issue 50), for its two parties only (thread.ts has
 * checked the reader): each where it was sent in the thread's one list by (created_at, seq)
 * (`threadVisitPage`, down visit_proposals_thread_idx, as thread-quotes.ts's quotes), with its
 * options and, for a booked proposal that is still its visit's current one, the visit's state
 * and what the reader may do now. Every time is text in the reader's zone (`ReaderTime`); the
 * operations check again what the cards offer. `nextVisitView`: the banner at the thread's top
 * (its visit read with the thread's head, thread.ts).
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { NextVisitView, VisitCard, VisitMarkView, VisitStateView } from "#core/visit-views.ts";
import {
  bookLabel,
  cancelledLine,
  VISIT_LATE_HOURS,
  markDeadline,
  VISIT_OUTCOME_LABELS,
  VISIT_TEXTS,
  visitBookedLine,
  type VisitOutcome,
  type VisitProposalStatus,
} from "#core/visits.ts";
import type { Database } from "../../db/client.ts";
import { visitOptions, visitProposals, visits } from "../../db/schema.ts";
import { exactTimestamp } from "../../pagination.ts";
import type { ReaderTime } from "../../reader-time.ts";

/** Who reads the cards, and whether they may arrange visits at all (no block either way, not suspended, not refunded in full). */
export interface VisitReader {
  role: "digger" | "client";
  /** The other party's name as the thread shows it (the digger's handle, the client's name). */
  otherName: string;
  time: ReaderTime;
  mayArrange: boolean;
}

/** A visit card with its place in the thread's list: `at` (created_at with its microseconds) and `seq`. */
export type PlacedVisitCard = VisitCard & { at: string; seq: number };

type Visit = typeof visits.$inferSelect;

const HOUR = 3600_000;

/**
 * The newest `limit` proposals of thread `threadId` (its party reads) sent before `before`
 * (created_at, seq), newest first: the visits' third of a thread page.
 */
export async function threadVisitPage(db: Database, threadId: string, before: readonly [string, number] | null, limit: number, reader: VisitReader): Promise<PlacedVisitCard[]> {
  const rows = await db
    .select({ proposal: visitProposals, at: exactTimestamp(visitProposals.createdAt) })
    .from(visitProposals)
    .where(and(eq(visitProposals.threadId, threadId), before ? sql`(${visitProposals.createdAt}, ${visitProposals.seq}) < (${before[0]}::timestamptz, ${before[1]}::bigint)` : undefined))
    .orderBy(desc(visitProposals.createdAt), desc(visitProposals.seq))
    .limit(limit);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.proposal.id);
  const options = await db.select().from(visitOptions).where(inArray(visitOptions.proposalId, ids)).orderBy(asc(visitOptions.proposalId), asc(visitOptions.position));
  // The visits whose current proposal is on this page (a booked proposal another one moved has none).
  const current = await db.select().from(visits).where(inArray(visits.proposalId, ids));
  return rows.map(({ proposal, at }) => {
    const visit = current.find((row) => row.proposalId === proposal.id) ?? null;
    return { ...card(proposal, options.filter((option) => option.proposalId === proposal.id), visit, reader), at, seq: proposal.seq };
  });
}

function card(
  proposal: typeof visitProposals.$inferSelect,
  options: Array<typeof visitOptions.$inferSelect>,
  visit: Visit | null,
  reader: VisitReader,
): VisitCard {
  const { time } = reader;
  const now = time.now.getTime();
  const canAnswer = reader.role === "client" && reader.mayArrange && proposal.status === "open";
  const moved = proposal.status === "booked" && !visit;
  return {
    id: proposal.id,
    status: proposal.status,
    reschedule: proposal.visitId !== null,
    note: proposal.note,
    options: options.map((option) => ({
      position: option.position,
      startsAt: option.startsAt.toISOString(),
      windowText: time.visitWindow(option.startsAt, option.windowMinutes),
      bookLabel: bookLabel(time.visitStart(option.startsAt)),
      bookable: canAnswer && option.startsAt.getTime() > now,
    })),
    bookedPosition: proposal.bookedPosition,
    statusText: moved ? VISIT_TEXTS.moved : statusText(proposal.status),
    canAnswer,
    visit: visit ? visitState(visit, reader) : null,
    createdAt: proposal.createdAt.toISOString(),
  };
}

function statusText(status: VisitProposalStatus): string | null {
  switch (status) {
    case "replaced":
      return VISIT_TEXTS.replaced;
    case "other_times":
      return VISIT_TEXTS.otherTimesAsked;
    case "withdrawn":
      return VISIT_TEXTS.withdrawn;
    default:
      return null;
  }
}

/** The visit's state as `reader` sees it, and what they may do now. */
function visitState(visit: Visit, reader: VisitReader): VisitStateView {
  const { role, time } = reader;
  const now = time.now.getTime();
  const booked = visit.status === "booked";
  const ahead = booked && visit.startsAt.getTime() > now;
  const closedFor = now - visit.endsAt.getTime();
  const markable = booked && closedFor >= 0 && now <= markDeadline(visit, role).getTime();
  const nameOf = (side: "digger" | "client") => (side === role ? "you" : reader.otherName);
  const marks: VisitMarkView[] = [];
  if (visit.diggerOutcome) marks.push({ side: "digger", outcome: visit.diggerOutcome, text: VISIT_OUTCOME_LABELS[visit.diggerOutcome], by: VISIT_TEXTS.markedBy(nameOf("digger")) });
  if (visit.clientOutcome) marks.push({ side: "client", outcome: visit.clientOutcome, text: VISIT_OUTCOME_LABELS[visit.clientOutcome], by: VISIT_TEXTS.markedBy(nameOf("client")) });
  const mine: VisitOutcome[] = role === "digger" ? ["visited", "client_absent"] : ["digger_absent"];
  const marked = role === "digger" ? visit.diggerOutcome !== null : visit.clientOutcome !== null;
  return {
    id: visit.id,
    status: visit.status,
    bookedLine: visitBookedLine(time.visitWindow(visit.startsAt, visit.windowMinutes)),
    startsAt: visit.startsAt.toISOString(),
    confirmed: visit.clientConfirmedAt !== null,
    changeRequested: visit.changeRequestedAt !== null,
    cancelled:
      visit.status === "cancelled"
        ? { line: cancelledLine(visit.cancelledBy === "system" || !visit.cancelledBy ? null : nameOf(visit.cancelledBy), visit.cancelReason), late: visit.lateCancellation }
        : null,
    marks,
    actions: {
      reschedule: ahead && role === "digger" && reader.mayArrange,
      cancel: ahead,
      lateIfCancelled: ahead && visit.startsAt.getTime() - now < VISIT_LATE_HOURS * HOUR,
      confirm: ahead && role === "client" && visit.clientConfirmedAt === null,
      change: ahead && role === "client" && visit.changeRequestedAt === null,
      marks: markable && !marked ? mine : [],
    },
  };
}

/** The thread's next booked visit whose window has not closed, for the banner; null for none. */
/** The banner of booked visit `visit` (the next of its thread not yet over), its times in the reader's zone. */
export function nextVisitView(visit: { id: string; startsAt: Date; windowMinutes: number }, time: ReaderTime): NextVisitView {
  const window = time.visitWindow(visit.startsAt, visit.windowMinutes);
  return { id: visit.id, line: visitBookedLine(window), window, upcoming: visit.startsAt.getTime() > time.now.getTime() };
}
