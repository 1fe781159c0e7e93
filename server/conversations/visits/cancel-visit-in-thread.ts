/**
 * Cancel a booked visit from the thread (issue 50): either party, with a reason (1 to 200
 * characters, `visitCancelSchema`), while the visit is this thread's, booked and its window has
 * not opened. The work is the one cancellation (cancel-visit.ts `cancelBookedVisit`): 'Late
 * cancellation' within 24 hours of the window, the reminders dropped, the other party told.
 */
import { VISIT_ANSWERS, VISIT_TEXTS, visitCancelSchema } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD, threadParty } from "../access.ts";
import { cancelBookedVisit } from "./cancel-visit.ts";
import { visitOfThread } from "./visit-party.ts";

async function cancelVisitInThread(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, visitId: unknown, reason: string): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const party = await threadParty(tx, userId, threadId, true);
    const visit = await visitOfThread(tx, party.id, visitId);
    if (visit.status !== "booked") throw new AppError("conflict", VISIT_ANSWERS.cancelled);
    const now = new Date();
    if (visit.startsAt.getTime() <= now.getTime()) throw new AppError("conflict", VISIT_ANSWERS.started);
    await cancelBookedVisit(tx, services.emit, visit, party.role, reason, now);
    return { success: VISIT_TEXTS.cancelled };
  });
}

export const cancelThreadVisit = defineOperation({
  access: THREAD,
  input: visitCancelSchema,
  run: ({ services, user, thread, input }) => cancelVisitInThread(services, user.id, thread.id, input.visitId, input.reason),
});
