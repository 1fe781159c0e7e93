/**
 * How the visit went (issue 50), once its window has closed and within 7 days of it (or of the
 * other side's mark, if later: `markDeadline`), once per side: the digger marks 'Visited' or 'Client was not there', the client 'Digger did not come'
 * (a party marking the other's outcome: 403). Never on a cancelled visit. The mark is a
 * conditional update where the side's outcome is still empty, so a second one (two tabs) finds
 * it marked; the trigger on `visits` derives both parties' `visit_records` (kept and missed; a
 * contradiction counts in neither). "visit.marked" tells the other party.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { markDeadline, VISIT_ANSWERS, VISIT_OUTCOME_SIDE, VISIT_TEXTS, visitMarkSchema, type VisitOutcome } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { visits } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { defineOperation } from "../../operation.ts";
import { THREAD, threadParty } from "../access.ts";
import { visitFacts } from "./visit-facts.ts";
import { visitOfThread } from "./visit-party.ts";

async function markVisit(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, visitId: unknown, outcome: VisitOutcome): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const party = await threadParty(tx, userId, threadId, true);
    const visit = await visitOfThread(tx, party.id, visitId);
    const side = VISIT_OUTCOME_SIDE[outcome];
    if (side !== party.role) throw new AppError("forbidden", VISIT_ANSWERS.notYourMark);
    if (visit.status !== "booked") throw new AppError("conflict", VISIT_ANSWERS.cancelled);
    const now = Date.now();
    if (visit.endsAt.getTime() > now) throw new AppError("conflict", VISIT_ANSWERS.notEnded);
    if (now > markDeadline(visit, side).getTime()) throw new AppError("conflict", VISIT_ANSWERS.markClosed);
    const [marked] =
      side === "digger"
        ? await tx
            .update(visits)
            .set({ diggerOutcome: outcome as "visited" | "client_absent", diggerMarkedAt: sql`now()`, updatedAt: sql`now()` })
            .where(and(eq(visits.id, visit.id), eq(visits.status, "booked"), isNull(visits.diggerOutcome)))
            .returning({ id: visits.id })
        : await tx
            .update(visits)
            .set({ clientOutcome: "digger_absent", clientMarkedAt: sql`now()`, updatedAt: sql`now()` })
            .where(and(eq(visits.id, visit.id), eq(visits.status, "booked"), isNull(visits.clientOutcome)))
            .returning({ id: visits.id });
    if (!marked) throw new AppError("conflict", VISIT_ANSWERS.alreadyMarked);
    await services.emit(tx, { kind: "visit.marked", ...(await visitFacts(tx, party.id)), visitId: visit.id, outcome });
    return { success: VISIT_TEXTS.marked };
  });
}

export const markThreadVisit = defineOperation({
  access: THREAD,
  input: visitMarkSchema,
  run: ({ services, user, thread, input }) => markVisit(services, user.id, thread.id, input.visitId, input.outcome),
});
