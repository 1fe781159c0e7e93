/**
 * The client's two answers in the thread (issue 50): Confirm ('Client confirmed' on the digger's
 * card) and Reschedule, 'Need to change' (the digger is told, to propose new times or cancel).
 * The visit must be this thread's and the caller its client (403 for the digger, the 404 page for
 * anyone else); the work is client-answers.ts's, shared with the reminder's signed link (booked,
 * window not opened).
 */
import { VISIT_ANSWERS, VISIT_TEXTS, visitChoiceSchema } from "#core/visits.ts";
import type { Transaction } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { Emit } from "../../events/emit.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD, threadParty } from "../access.ts";
import { confirmVisit, requestVisitChange } from "./client-answers.ts";
import { visitOfThread } from "./visit-party.ts";

function clientAnswer(answer: (tx: Transaction, emit: Emit, visitId: string) => Promise<unknown>, success: string) {
  return defineOperation({
    access: THREAD,
    input: visitChoiceSchema,
    run: ({ services, user, thread, input }) =>
      services.db.transaction(async (tx) => {
        const party = await threadParty(tx, user.id, thread.id, true);
        if (party.role !== "client") throw new AppError("forbidden", VISIT_ANSWERS.onlyClientAnswers);
        const visit = await visitOfThread(tx, party.id, input.visitId);
        await answer(tx, services.emit, visit.id);
        return { success };
      }),
  });
}

export const confirmThreadVisit = clientAnswer(confirmVisit, VISIT_TEXTS.confirmed);
export const changeThreadVisit = clientAnswer(requestVisitChange, VISIT_TEXTS.changeAsked);
