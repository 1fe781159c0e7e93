/**
 * Visits in the account's privacy rights (issue 50): the data export lists each thread's
 * proposals (their times, status and the digger's note) and visits (times, state, the
 * cancellation's reason, the marks); the purge of a deleted account blanks what it wrote: the
 * notes of its proposals and the reasons of its cancellations. Times, states and marks stay (the
 * other party's record of what happened, like a quote's price).
 */
import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { threads, visitOptions, visitProposals, visits } from "../../db/schema.ts";

/** One thread's proposals and visits as `userId` (its party, already checked) sees them. */
export async function exportedVisits(db: Database, userId: string, threadId: string) {
  const proposals = await db.select().from(visitProposals).where(eq(visitProposals.threadId, threadId)).orderBy(asc(visitProposals.createdAt), asc(visitProposals.seq));
  const options =
    proposals.length === 0
      ? []
      : await db
          .select()
          .from(visitOptions)
          .where(
            inArray(
              visitOptions.proposalId,
              proposals.map((proposal) => proposal.id),
            ),
          )
          .orderBy(asc(visitOptions.position));
  const booked = await db.select().from(visits).where(eq(visits.threadId, threadId)).orderBy(asc(visits.createdAt));
  return {
    visitProposals: proposals.map((proposal) => ({
      status: proposal.status,
      note: proposal.note,
      timeZone: proposal.zone,
      times: options.filter((option) => option.proposalId === proposal.id).map((option) => ({ startsAt: option.startsAt, windowMinutes: option.windowMinutes })),
      createdAt: proposal.createdAt,
    })),
    visits: booked.map((visit) => {
      const mySide = visit.diggerUserId === userId ? "digger" : "client";
      return {
        startsAt: visit.startsAt,
        endsAt: visit.endsAt,
        status: visit.status,
        cancelledBy: visit.cancelledBy === null ? null : visit.cancelledBy === "system" ? "Digs & Gigs" : visit.cancelledBy === mySide ? "you" : "the other party",
        cancelReason: visit.cancelReason,
        lateCancellation: visit.lateCancellation,
        clientConfirmed: visit.clientConfirmedAt !== null,
        diggerMark: visit.diggerOutcome,
        clientMark: visit.clientOutcome,
      };
    }),
  };
}

/** In the purge's transaction: the notes of the account's proposals and the reasons of its cancellations, blanked. */
export async function purgeVisitTextsOf(tx: Transaction, userId: string): Promise<void> {
  const asDigger = tx.select({ id: threads.id }).from(threads).where(eq(threads.diggerUserId, userId));
  await tx
    .update(visitProposals)
    .set({ note: null })
    .where(and(inArray(visitProposals.threadId, asDigger), isNotNull(visitProposals.note)));
  await tx
    .update(visits)
    .set({ cancelReason: null, updatedAt: sql`now()` })
    .where(
      and(
        isNotNull(visits.cancelReason),
        or(and(eq(visits.cancelledBy, "digger"), eq(visits.diggerUserId, userId)), and(eq(visits.cancelledBy, "client"), eq(visits.clientId, userId))),
      ),
    );
}
