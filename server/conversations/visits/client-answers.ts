/**
 * The client's two answers to a booked visit (issue 50), from the thread or from the 24-hour
 * reminder's signed link (usable without signing in): Confirm ('Client confirmed' on the
 * digger's card) and Need to change (the digger is told, to propose new times or cancel). Only
 * while the visit is booked and its window has not opened; the caller has checked that the
 * answer is the visit's client's (their session, or a link signed for this visit and its
 * `sequence`). Answering twice changes nothing.
 */
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { VISIT_ANSWERS } from "#core/visits.ts";
import type { Transaction } from "../../db/client.ts";
import { visits } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Emit } from "../../events/emit.ts";
import { visitFacts, visitTime } from "./visit-facts.ts";

type Visit = typeof visits.$inferSelect;

/** The visit locked, refused unless it is booked and its window has not opened. */
async function answerable(tx: Transaction, visitId: string): Promise<Visit> {
  const [visit] = await tx.select().from(visits).where(eq(visits.id, visitId)).for("update");
  if (!visit) throw new AppError("not_found", VISIT_ANSWERS.notFound);
  if (visit.status === "cancelled") throw new AppError("conflict", VISIT_ANSWERS.cancelled);
  if (visit.startsAt.getTime() <= Date.now()) throw new AppError("conflict", VISIT_ANSWERS.started);
  return visit;
}

/** Confirm: marks the visit confirmed by its client (once). */
export async function confirmVisit(tx: Transaction, emit: Emit, visitId: string): Promise<Visit> {
  const visit = await answerable(tx, visitId);
  const [confirmed] = await tx
    .update(visits)
    .set({ clientConfirmedAt: sql`now()`, changeRequestedAt: null, updatedAt: sql`now()` })
    .where(and(eq(visits.id, visit.id), isNull(visits.clientConfirmedAt), gt(visits.startsAt, sql`now()`)))
    .returning();
  if (confirmed) await emit(tx, { kind: "visit.confirmed", ...(await visitFacts(tx, visit.threadId)), ...visitTime(confirmed) });
  return confirmed ?? visit;
}

/** Need to change: the digger hears of it (once per change of the visit). */
export async function requestVisitChange(tx: Transaction, emit: Emit, visitId: string): Promise<Visit> {
  const visit = await answerable(tx, visitId);
  const [asked] = await tx
    .update(visits)
    .set({ changeRequestedAt: sql`now()`, clientConfirmedAt: null, updatedAt: sql`now()` })
    .where(and(eq(visits.id, visit.id), isNull(visits.changeRequestedAt)))
    .returning();
  if (asked) await emit(tx, { kind: "visit.change-requested", ...(await visitFacts(tx, visit.threadId)), ...visitTime(asked) });
  return asked ?? visit;
}
