/**
 * Cancelling a booked visit (issue 50), the one way for every canceller: a party's Cancel (with
 * its reason; 'Late cancellation' within 24 hours of the window), and the system's, with a
 * notice to both, when an account is suspended or a block stands between the two (the visits
 * whose window has not opened). The visit's SEQUENCE goes up (its calendars drop it on the
 * METHOD:CANCEL e-mail), its reminders go with it (the trigger on `visits`), and an open
 * proposal of new times for it is withdrawn.
 */
import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import { VISIT_LATE_HOURS, type VisitCanceller } from "#core/visits.ts";
import type { Transaction } from "../../db/client.ts";
import { threads, visitProposals, visits } from "../../db/schema.ts";
import type { Emit } from "../../events/emit.ts";
import { visitFacts, visitTime } from "./visit-facts.ts";

type Visit = typeof visits.$inferSelect;

/** The booked visit `visit` (locked by the caller, who checked who may) cancelled by `by`. */
export async function cancelBookedVisit(tx: Transaction, emit: Emit, visit: Visit, by: VisitCanceller, reason: string | null, now = new Date()): Promise<void> {
  const late = by !== "system" && visit.startsAt.getTime() - now.getTime() < VISIT_LATE_HOURS * 3600_000;
  const [cancelled] = await tx
    .update(visits)
    .set({ status: "cancelled", cancelledBy: by, cancelReason: reason, cancelledAt: sql`now()`, lateCancellation: late, sequence: visit.sequence + 1, updatedAt: sql`now()` })
    .where(and(eq(visits.id, visit.id), eq(visits.status, "booked")))
    .returning();
  if (!cancelled) return;
  await tx
    .update(visitProposals)
    .set({ status: "withdrawn", decidedAt: sql`now()` })
    .where(and(eq(visitProposals.visitId, visit.id), eq(visitProposals.status, "open")));
  const facts = await visitFacts(tx, visit.threadId);
  await emit(tx, { kind: "visit.cancelled", ...facts, ...visitTime(cancelled), by, reason, late });
  // The canceller's own calendar drops it too (an e-mail with METHOD:CANCEL, no bell).
  if (by !== "system") await emit(tx, { kind: "visit.cancel-copy", ...facts, ...visitTime(cancelled), by });
}

/**
 * The system's cancellation, with a notice to both: every booked visit whose window has not
 * opened, of `userId`'s threads (a suspension) or of the threads between two people (a block);
 * and their open proposals, withdrawn.
 */
export async function cancelUpcomingVisits(tx: Transaction, emit: Emit, of: { userId: string } | { between: readonly [string, string] }): Promise<number> {
  const [a, b] = "userId" in of ? [of.userId, of.userId] : of.between;
  const inThreads =
    "userId" in of
      ? or(eq(threads.diggerUserId, a), eq(threads.clientId, a))
      : or(and(eq(threads.diggerUserId, a), eq(threads.clientId, b)), and(eq(threads.diggerUserId, b), eq(threads.clientId, a)));
  const threadIds = tx.select({ id: threads.id }).from(threads).where(inThreads);
  const upcoming = await tx
    .select()
    .from(visits)
    .where(and(inArray(visits.threadId, threadIds), eq(visits.status, "booked"), gt(visits.startsAt, sql`now()`)))
    .orderBy(visits.id)
    .for("update");
  for (const visit of upcoming) await cancelBookedVisit(tx, emit, visit, "system", null);
  // Times still open to book go too: none may be booked with a suspended account, or across a block.
  await tx
    .update(visitProposals)
    .set({ status: "withdrawn", decidedAt: sql`now()` })
    .where(and(inArray(visitProposals.threadId, threadIds), eq(visitProposals.status, "open")));
  return upcoming.length;
}
