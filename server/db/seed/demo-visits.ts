/**
 * The demo's site visits (issue 50), written as a booking writes them (a booked proposal, its
 * option, the visit): the demo digger has a visit booked in three days on their lead bought 20
 * days ago, and three past visits they marked 'Visited' on past work they were hired for (so
 * their profile and card say 'Kept 3 of 3 visits', counted by the database's trigger); the demo
 * client has a visit booked in five days with the digger who bought their first gig (the lead not
 * refunded), confirmed.
 * Times are wall clocks in the digger's zone (America/Chicago), as the form writes them.
 */
import { and, asc, desc, eq, exists, sql } from "drizzle-orm";
import { addDays, dayIn, wallClockInstant } from "#core/dates.ts";
import type { VisitWindow } from "#core/visits.ts";
import type { Transaction } from "../client.ts";
import { gigs, hires, leadIssues, leadPurchases, refunds, threads, visitOptions, visitProposals, visits } from "../schema.ts";

const ZONE = "America/Chicago";

interface DemoVisit {
  threadId: string;
  diggerUserId: string;
  clientId: string;
  startsAt: Date;
  windowMinutes: VisitWindow;
  /** When the client booked it. */
  bookedAt: Date;
  visited?: boolean;
  confirmed?: boolean;
}

async function insertVisit(tx: Transaction, visit: DemoVisit): Promise<void> {
  const [proposal] = await tx
    .insert(visitProposals)
    .values({ threadId: visit.threadId, zone: ZONE, status: "booked", bookedPosition: 0, decidedAt: visit.bookedAt, createdAt: new Date(visit.bookedAt.getTime() - 3 * 3_600_000) })
    .returning({ id: visitProposals.id });
  await tx.insert(visitOptions).values({ proposalId: proposal!.id, position: 0, startsAt: visit.startsAt, windowMinutes: visit.windowMinutes });
  const endsAt = new Date(visit.startsAt.getTime() + visit.windowMinutes * 60_000);
  await tx.insert(visits).values({
    threadId: visit.threadId,
    diggerUserId: visit.diggerUserId,
    clientId: visit.clientId,
    proposalId: proposal!.id,
    startsAt: visit.startsAt,
    windowMinutes: visit.windowMinutes,
    endsAt,
    createdAt: visit.bookedAt,
    updatedAt: visit.bookedAt,
    clientConfirmedAt: visit.confirmed ? visit.bookedAt : null,
    ...(visit.visited ? { diggerOutcome: "visited" as const, diggerMarkedAt: new Date(endsAt.getTime() + 3_600_000) } : {}),
  });
}

/** `days` days after `day`'s date (negative: before), at `time` on the digger's clock. */
function dayAt(day: Date, days: number, time: string): Date {
  return wallClockInstant(addDays(dayIn(ZONE, day), days), time, ZONE)!;
}

/** The threads of the purchases `where` selects, oldest purchase first (or newest with `newest`). */
function threadsOf(tx: Transaction, where: ReturnType<typeof and>, newest = false) {
  return tx
    .select({ id: threads.id, diggerUserId: threads.diggerUserId, clientId: threads.clientId, purchasedAt: leadPurchases.purchasedAt })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .where(where)
    .orderBy(newest ? desc(leadPurchases.purchasedAt) : asc(leadPurchases.purchasedAt));
}

export async function seedDemoVisits(tx: Transaction, now: Date, demoDiggerId: string, demoClientId: string): Promise<void> {
  const noIssue = sql`not ${exists(tx.select({ one: sql`1` }).from(leadIssues).where(eq(leadIssues.leadPurchaseId, leadPurchases.id)))}`;
  const hired = exists(tx.select({ one: sql`1` }).from(hires).where(and(eq(hires.gigId, leadPurchases.gigId), eq(hires.diggerId, leadPurchases.diggerId))));
  const hour = 3_600_000;
  // The demo digger's open lead without an issue: a visit booked this morning, in three days.
  const [lead] = await threadsOf(tx, and(eq(leadPurchases.diggerId, demoDiggerId), eq(gigs.status, "open"), noIssue));
  if (lead) await insertVisit(tx, { threadId: lead.id, diggerUserId: lead.diggerUserId, clientId: lead.clientId, startsAt: dayAt(now, 3, "09:00"), windowMinutes: 120, bookedAt: new Date(now.getTime() - 2 * hour) });
  // Three past jobs they were hired for: a visit the morning after buying, marked 'Visited'.
  for (const past of (await threadsOf(tx, and(eq(leadPurchases.diggerId, demoDiggerId), hired), true)).slice(0, 3)) {
    const startsAt = dayAt(past.purchasedAt!, 1, "10:00");
    await insertVisit(tx, { threadId: past.id, diggerUserId: past.diggerUserId, clientId: past.clientId, startsAt, windowMinutes: 60, bookedAt: new Date(past.purchasedAt!.getTime() + 2 * hour), visited: true });
  }
  // The demo client's gig bought by another digger (not refunded): a visit in five days, confirmed.
  const notRefunded = sql`not ${exists(tx.select({ one: sql`1` }).from(refunds).where(eq(refunds.leadPurchaseId, leadPurchases.id)))}`;
  const [own] = await threadsOf(tx, and(eq(gigs.clientId, demoClientId), eq(gigs.status, "open"), notRefunded));
  if (own) await insertVisit(tx, { threadId: own.id, diggerUserId: own.diggerUserId, clientId: own.clientId, startsAt: dayAt(now, 5, "14:00"), windowMinutes: 60, bookedAt: new Date(now.getTime() - hour), confirmed: true });
}
