/**
 * Site visits (issue 50) written straight to the database, as a booking leaves them: a booked
 * proposal, its option and the visit (the thread's operations have their own tests). The
 * database's triggers keep the reminders and each side's kept/missed record (migration 0055).
 */
import { eq } from "drizzle-orm";
import type { VisitCanceller, VisitWindow } from "../../core/visits.ts";
import { threads, visitOptions, visitProposals, visits } from "../../server/db/schema.ts";
import type { WithDatabase } from "./accounts.ts";

export type TestVisit = typeof visits.$inferSelect;

export interface VisitOver {
  windowMinutes?: VisitWindow;
  /** Cancelled by this side (now), with a reason; 'Late cancellation' with `late`. */
  cancelledBy?: VisitCanceller;
  reason?: string | null;
  late?: boolean;
  diggerOutcome?: "visited" | "client_absent";
  clientOutcome?: "digger_absent";
  confirmed?: boolean;
  changeRequested?: boolean;
}

/** A visit booked in thread `threadId`, starting at `startsAt` (one hour's window unless told). */
export async function insertVisit(app: WithDatabase, threadId: string, startsAt: Date, over: VisitOver = {}): Promise<TestVisit> {
  const db = app.database.db;
  const [thread] = await db.select({ diggerUserId: threads.diggerUserId, clientId: threads.clientId }).from(threads).where(eq(threads.id, threadId));
  if (!thread) throw new Error(`insertVisit: no thread ${threadId}`);
  const windowMinutes = over.windowMinutes ?? 60;
  const [proposal] = await db
    .insert(visitProposals)
    .values({ threadId, zone: "America/Chicago", status: "booked", bookedPosition: 0, decidedAt: new Date() })
    .returning({ id: visitProposals.id });
  await db.insert(visitOptions).values({ proposalId: proposal!.id, position: 0, startsAt, windowMinutes });
  const endsAt = new Date(startsAt.getTime() + windowMinutes * 60_000);
  const now = new Date();
  const [visit] = await db
    .insert(visits)
    .values({
      threadId,
      diggerUserId: thread.diggerUserId,
      clientId: thread.clientId,
      proposalId: proposal!.id,
      startsAt,
      windowMinutes,
      endsAt,
      clientConfirmedAt: over.confirmed ? now : null,
      changeRequestedAt: over.changeRequested ? now : null,
      ...(over.cancelledBy
        ? { status: "cancelled" as const, cancelledBy: over.cancelledBy, cancelReason: over.reason ?? null, cancelledAt: now, lateCancellation: over.late ?? false }
        : {}),
      ...(over.diggerOutcome ? { diggerOutcome: over.diggerOutcome, diggerMarkedAt: now } : {}),
      ...(over.clientOutcome ? { clientOutcome: over.clientOutcome, clientMarkedAt: now } : {}),
    })
    .returning();
  return visit!;
}

/** `hours` from now (negative: ago), on a whole minute. */
export const hoursFromNow = (hours: number) => new Date(Math.floor((Date.now() + hours * 3_600_000) / 60_000) * 60_000);
