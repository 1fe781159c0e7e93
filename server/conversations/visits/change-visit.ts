/**
 * The client's Reschedule in the thread, 'Need to change' (issue 50): the visit must be this
 * thread's and the caller its client (403 for the digger, the 404 page for anyone else); the
 * work is client-answers.ts's `requestVisitChange` (booked, window not opened), shared with the
 * reminder's signed link: the digger is told, to propose new times or cancel.
 */
import { VISIT_ANSWERS, VISIT_TEXTS, visitChoiceSchema } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD, threadParty } from "../access.ts";
import { requestVisitChange } from "./client-answers.ts";
import { visitOfThread } from "./visit-party.ts";

async function changeVisitInThread(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, visitId: unknown): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const party = await threadParty(tx, userId, threadId, true);
    if (party.role !== "client") throw new AppError("forbidden", VISIT_ANSWERS.onlyClientAnswers);
    const visit = await visitOfThread(tx, party.id, visitId);
    await requestVisitChange(tx, services.emit, visit.id);
    return { success: VISIT_TEXTS.changeAsked };
  });
}

export const changeThreadVisit = defineOperation({
  access: THREAD,
  input: visitChoiceSchema,
  run: ({ services, user, thread, input }) => changeVisitInThread(services, user.id, thread.id, input.visitId),
});
