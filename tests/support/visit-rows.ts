/**
 * Site visits written as the thread's operations write them (issue 50), for the tests of what a
 * visit sends: the proposal, its options and the visit inserted in one transaction, which emits
 * the visit's event through `services.emit` with `visitFacts` and `visitTime`, as propose, book and
 * reschedule do. Cancelling goes through the one cancellation function (cancel-visit.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Transaction } from "../../server/db/client.ts";
import { users, visitOptions, visitProposals, visits } from "../../server/db/schema.ts";
import { cancelBookedVisit } from "../../server/conversations/visits/cancel-visit.ts";
import { visitFacts, visitTime } from "../../server/conversations/visits/visit-facts.ts";
import type { VisitCanceller, VisitWindow } from "../../core/visits.ts";
import type { WithDatabase } from "./accounts.ts";
import type { TestApp } from "./app.ts";
import type { BoughtLead } from "./leads.ts";

export type Visit = typeof visits.$inferSelect;

const end = (startsAt: Date, windowMinutes: number) => new Date(startsAt.getTime() + windowMinutes * 60_000);

/** Sets each person's time zone (users.time_zone: what their notices are written in). */
export async function setZones(app: TestApp, zones: Record<string, string>) {
  for (const [userId, timeZone] of Object.entries(zones)) await app.database.db.update(users).set({ timeZone }).where(eq(users.id, userId));
}

async function insertProposal(tx: Transaction, lead: BoughtLead, options: Array<{ startsAt: Date; windowMinutes: VisitWindow }>, over: Partial<typeof visitProposals.$inferInsert> = {}) {
  const [proposal] = await tx
    .insert(visitProposals)
    .values({ threadId: lead.threadId, zone: "America/Chicago", ...over })
    .returning();
  await tx.insert(visitOptions).values(options.map((option, position) => ({ proposalId: proposal!.id, position, ...option })));
  return proposal!;
}

/** The digger proposes times (open, or new times for `visitId`): "visit.proposed". */
export function proposeVisitRows(app: TestApp, lead: BoughtLead, options: Array<{ startsAt: Date; windowMinutes: VisitWindow }>, { note = null as string | null, visitId = null as string | null } = {}) {
  return app.database.db.transaction(async (tx) => {
    const proposal = await insertProposal(tx, lead, options, { note, visitId });
    await app.services.emit(tx, { kind: "visit.proposed", ...(await visitFacts(tx, lead.threadId)), proposalId: proposal.id, reschedule: visitId !== null });
    return proposal;
  });
}

/** The client books a time: the visit, and "visit.booked" (its invitation, its reminders). */
export function bookVisitRows(app: TestApp, lead: BoughtLead, option: { startsAt: Date; windowMinutes: VisitWindow }): Promise<Visit> {
  return app.database.db.transaction(async (tx) => {
    const proposal = await insertProposal(tx, lead, [option], { status: "booked", bookedPosition: 0, decidedAt: new Date() });
    const [visit] = await tx
      .insert(visits)
      .values({
        threadId: lead.threadId,
        diggerUserId: lead.digger.id,
        clientId: lead.client.id,
        proposalId: proposal.id,
        startsAt: option.startsAt,
        windowMinutes: option.windowMinutes,
        endsAt: end(option.startsAt, option.windowMinutes),
      })
      .returning();
    await app.services.emit(tx, { kind: "visit.booked", ...(await visitFacts(tx, lead.threadId)), ...visitTime(visit!) });
    return visit!;
  });
}

/** A booked visit moved to new times (Reschedule, booked): same visit, SEQUENCE + 1, "visit.booked" again. */
export function moveVisitRows(app: TestApp, lead: BoughtLead, visit: Visit, option: { startsAt: Date; windowMinutes: VisitWindow }): Promise<Visit> {
  return app.database.db.transaction(async (tx) => {
    const proposal = await insertProposal(tx, lead, [option], { status: "booked", bookedPosition: 0, decidedAt: new Date(), visitId: visit.id });
    const [moved] = await tx
      .update(visits)
      .set({
        proposalId: proposal.id,
        startsAt: option.startsAt,
        windowMinutes: option.windowMinutes,
        endsAt: end(option.startsAt, option.windowMinutes),
        sequence: sql`${visits.sequence} + 1`,
        clientConfirmedAt: null,
        changeRequestedAt: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(visits.id, visit.id), eq(visits.status, "booked")))
      .returning();
    await app.services.emit(tx, { kind: "visit.booked", ...(await visitFacts(tx, lead.threadId)), ...visitTime(moved!) });
    return moved!;
  });
}

/** Cancelled by `by` through the one cancellation function ("visit.cancelled", "visit.cancel-copy"). */
export async function cancelVisitRows(app: TestApp, visitId: string, by: VisitCanceller, reason: string | null): Promise<Visit> {
  return app.database.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(visits).where(eq(visits.id, visitId)).for("update");
    await cancelBookedVisit(tx, app.services.emit, locked!, by, reason);
    const [after] = await tx.select().from(visits).where(eq(visits.id, visitId));
    return after!;
  });
}

/** The visit's row now. */
export async function visitRow(app: WithDatabase, visitId: string): Promise<Visit> {
  const [row] = await app.database.db.select().from(visits).where(eq(visits.id, visitId));
  return row!;
}

/**
 * A booked visit's rows alone, without its event (no notice, no job): for the security tests'
 * world, whose tables must change only by the request under test.
 */
export async function insertBookedVisit(app: WithDatabase, thread: { id: string; diggerUserId: string; clientId: string }, startsAt: Date, windowMinutes: VisitWindow = 120): Promise<Visit> {
  return app.database.db.transaction(async (tx) => {
    const [proposal] = await tx.insert(visitProposals).values({ threadId: thread.id, zone: "America/Chicago", status: "booked", bookedPosition: 0, decidedAt: new Date() }).returning();
    await tx.insert(visitOptions).values({ proposalId: proposal!.id, position: 0, startsAt, windowMinutes });
    const [visit] = await tx
      .insert(visits)
      .values({ threadId: thread.id, diggerUserId: thread.diggerUserId, clientId: thread.clientId, proposalId: proposal!.id, startsAt, windowMinutes, endsAt: end(startsAt, windowMinutes) })
      .returning();
    return visit!;
  });
}
