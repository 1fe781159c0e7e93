/**
 * Propose a visit (issue 50): the thread's digger only (403 for the client, the 404 page for
 * anyone else), never on a lead refunded in full, a block either way or a suspended account.
 * One to three times, written in the digger's zone (`visitProposalSchema`), and a note. In one
 * transaction, under the thread's row lock: the thread's open proposal 'replaced' ('Replaced by
 * new times'), the new proposal and its options; when the thread has a booked visit whose window
 * has not opened, the new times are a Reschedule of it (`visit_id`: booking them moves that
 * visit). One open proposal per thread (visit_proposals_one_open_key backs it). "visit.proposed"
 * tells the client.
 */
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { VISIT_ANSWERS, VISIT_PROPOSALS_PER_DAY, VISIT_TEXTS, type VisitProposalInput } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { visitOptions, visitProposals, visits } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD, threadParty } from "../access.ts";
import { takeMessageLimits } from "../message-limits.ts";
import { visitFacts } from "./visit-facts.ts";
import { diggerZone, visitFormInput, visitProposalInput } from "./visit-form.ts";
import { visitLead } from "./visit-party.ts";

async function proposeVisit(
  services: Pick<AppServices, "db" | "emit">,
  userId: string,
  threadId: string,
  input: VisitProposalInput,
  zone: string,
): Promise<{ success: string; proposalId: string }> {
  await threadParty(services.db, userId, threadId);
  try {
    return await services.db.transaction(async (tx) => {
      // Each proposal e-mails the client: it counts as a message against the sender's limits (30
      // a minute, 500 a day), in its own transaction as a message's count is (message-limits.ts).
      if (!(await takeMessageLimits(tx, userId))) throw new AppError("too_many_requests", MESSAGE_TEXTS.tooFast);
      const lead = await visitLead(tx, userId, threadId, "digger", VISIT_ANSWERS.onlyDigger);
      if (lead.refunded) throw new AppError("conflict", VISIT_ANSWERS.refunded);
      // Each proposal is an e-mail to the client: a few a day per thread (counted under the thread's lock).
      const [today] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(visitProposals)
        .where(and(eq(visitProposals.threadId, lead.threadId), gt(visitProposals.createdAt, sql`now() - interval '24 hours'`)));
      if ((today?.count ?? 0) >= VISIT_PROPOSALS_PER_DAY) throw new AppError("too_many_requests", VISIT_ANSWERS.proposalsPerDay);
      await tx
        .update(visitProposals)
        .set({ status: "replaced", decidedAt: sql`now()` })
        .where(and(eq(visitProposals.threadId, lead.threadId), eq(visitProposals.status, "open")));
      // New times for the booked visit not yet begun, if any: a Reschedule (same visit, same UID).
      const [booked] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(and(eq(visits.threadId, lead.threadId), eq(visits.status, "booked"), gt(visits.startsAt, new Date())))
        .orderBy(desc(visits.startsAt))
        .limit(1);
      const [proposal] = await tx
        .insert(visitProposals)
        .values({ threadId: lead.threadId, visitId: booked?.id ?? null, note: input.note, zone })
        .returning({ id: visitProposals.id });
      await tx.insert(visitOptions).values(input.options.map((option, position) => ({ proposalId: proposal!.id, position, startsAt: option.startsAt, windowMinutes: option.window })));
      await services.emit(tx, { kind: "visit.proposed", ...(await visitFacts(tx, lead.threadId)), proposalId: proposal!.id, reschedule: booked !== undefined });
      return { success: VISIT_TEXTS.proposed, proposalId: proposal!.id };
    });
  } catch (error) {
    // Two proposals racing past the thread's lock: the database keeps one open proposal per thread.
    if (isUniqueViolation(error, "visit_proposals_one_open_key")) throw new AppError("conflict", VISIT_ANSWERS.proposedMeanwhile, { cause: error });
    throw error;
  }
}

export const proposeThreadVisit = defineOperation({
  access: THREAD,
  input: visitProposalInput,
  fields: visitFormInput,
  run: ({ services, user, thread, input }) => proposeVisit(services, user.id, thread.id, input, diggerZone({ services, user })),
});
