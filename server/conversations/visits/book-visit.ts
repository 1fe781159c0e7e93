/**
 * Book one of a proposal's times (issue 50): the thread's client only (403 for the digger, the
 * 404 page for anyone else), never on a lead refunded in full nor with a block either way. The
 * proposal must be this thread's, open, and the chosen time still ahead; otherwise 'These times
 * are no longer open'. Booking is a conditional update of the proposal from 'open' under its row
 * lock: of two racing clicks exactly one books. A new visit is inserted; new times for a booked
 * visit (a Reschedule, `visit_id`) move that visit, while it is booked and its window has not
 * opened: same id (its calendar UID), `sequence` + 1, the client's Confirm and Need to change
 * cleared. The trigger on `visits` writes or moves its
 * reminders; "visit.booked" tells both parties.
 */
import { and, eq, sql } from "drizzle-orm";
import { VISIT_ANSWERS, VISIT_TEXTS, visitChoiceSchema } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { visitOptions, visitProposals, visits } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD } from "../access.ts";
import { visitFacts, visitTime } from "./visit-facts.ts";
import { proposalOfThread, visitLead } from "./visit-party.ts";

async function bookVisit(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, proposalId: unknown, position: number | undefined): Promise<{ success: string; visitId: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await visitLead(tx, userId, threadId, "client", VISIT_ANSWERS.onlyClient);
    if (lead.refunded) throw new AppError("conflict", VISIT_ANSWERS.refunded);
    const proposal = await proposalOfThread(tx, lead.threadId, proposalId);
    const notOpen = () => new AppError("conflict", VISIT_ANSWERS.notOpen);
    if (proposal.status !== "open" || position === undefined) throw notOpen();
    const [option] = await tx
      .select()
      .from(visitOptions)
      .where(and(eq(visitOptions.proposalId, proposal.id), eq(visitOptions.position, position)));
    if (!option || option.startsAt.getTime() <= Date.now()) throw notOpen();
    // Only from 'open': a click that waited for the row lock behind another one finds it booked.
    const [booked] = await tx
      .update(visitProposals)
      .set({ status: "booked", bookedPosition: position, decidedAt: sql`now()` })
      .where(and(eq(visitProposals.id, proposal.id), eq(visitProposals.status, "open")))
      .returning({ id: visitProposals.id });
    if (!booked) throw notOpen();
    const times = { startsAt: option.startsAt, windowMinutes: option.windowMinutes, endsAt: new Date(option.startsAt.getTime() + option.windowMinutes * 60_000) };
    let visit: typeof visits.$inferSelect | undefined;
    if (proposal.visitId) {
      const [moving] = await tx.select().from(visits).where(eq(visits.id, proposal.visitId)).for("update");
      if (!moving || moving.status !== "booked") throw new AppError("conflict", VISIT_ANSWERS.cancelled);
      // New times move a visit only until its window opens (as Reschedule and Cancel do).
      if (moving.startsAt.getTime() <= Date.now()) throw new AppError("conflict", VISIT_ANSWERS.started);
      [visit] = await tx
        .update(visits)
        .set({ ...times, proposalId: proposal.id, sequence: moving.sequence + 1, clientConfirmedAt: null, changeRequestedAt: null, updatedAt: sql`now()` })
        .where(and(eq(visits.id, moving.id), eq(visits.status, "booked")))
        .returning();
    } else {
      [visit] = await tx
        .insert(visits)
        .values({ threadId: lead.threadId, diggerUserId: lead.diggerUserId, clientId: userId, proposalId: proposal.id, ...times })
        .returning();
    }
    if (!visit) throw new AppError("conflict", VISIT_ANSWERS.cancelled);
    await services.emit(tx, { kind: "visit.booked", ...(await visitFacts(tx, lead.threadId)), ...visitTime(visit) });
    return { success: VISIT_TEXTS.booked, visitId: visit.id };
  });
}

export const bookThreadVisit = defineOperation({
  access: THREAD,
  input: visitChoiceSchema,
  run: ({ services, user, thread, input }) => bookVisit(services, user.id, thread.id, input.proposalId, input.position),
});
