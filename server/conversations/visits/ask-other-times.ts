/**
 * Ask for other times (issue 50): the thread's client only (403 for the digger, the 404 page for
 * anyone else), on the thread's open proposal, which becomes 'other_times' ('Asked for other
 * times'); "visit.other-times-asked" tells the digger, who may propose again. New times for a
 * booked visit asked away leave that visit booked at its time.
 */
import { and, eq, sql } from "drizzle-orm";
import { VISIT_ANSWERS, VISIT_TEXTS, visitChoiceSchema } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { visitProposals } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD } from "../access.ts";
import { visitFacts } from "./visit-facts.ts";
import { proposalOfThread, visitLead } from "./visit-party.ts";

async function askOtherTimes(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, proposalId: unknown): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await visitLead(tx, userId, threadId, "client", VISIT_ANSWERS.onlyClient);
    const proposal = await proposalOfThread(tx, lead.threadId, proposalId);
    const [asked] = await tx
      .update(visitProposals)
      .set({ status: "other_times", decidedAt: sql`now()` })
      .where(and(eq(visitProposals.id, proposal.id), eq(visitProposals.status, "open")))
      .returning({ id: visitProposals.id });
    if (!asked) throw new AppError("conflict", VISIT_ANSWERS.notOpen);
    await services.emit(tx, { kind: "visit.other-times-asked", ...(await visitFacts(tx, lead.threadId)), proposalId: proposal.id });
    return { success: VISIT_TEXTS.askedOtherTimes };
  });
}

export const askThreadOtherTimes = defineOperation({
  access: THREAD,
  input: visitChoiceSchema,
  run: ({ services, user, thread, input }) => askOtherTimes(services, user.id, thread.id, input.proposalId),
});
