/**
 * Mark as Hired and its undo, in the Diggers dialog of /my-gigs (issue 20). Only the gig's
 * owner (403 otherwise), only for a digger with a completed purchase of it that was not refunded
 * in full (409 otherwise; a hire recorded before the refund stops counting, migration 0027);
 * the primary key (gig, digger) keeps it to one hire per pair. The digger is e-mailed when a
 * hire is recorded; the database recomputes their completion_rate in the same transaction.
 * A hire knows nothing of quotes: its removal is the event "hire.removed", which the
 * conversations react to (conversations/reopen-quote.ts). The forms: mark-hired.ts, undo-hire.ts.
 */
import { and, eq } from "drizzle-orm";
import { TRUST_MESSAGES } from "#core/reviews.ts";
import type { Transaction } from "../db/client.ts";
import { hires } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import type { Emit } from "../events/emit.ts";
import { completedPurchase, ownedGig } from "./gig-buyers.ts";
import { closeReviewWindow, openReviewWindow } from "./review-window.ts";

type Services = Pick<AppServices, "db" | "emit">;

export async function setHired(services: Services, clientId: string, gigId: string, diggerIdInput: unknown, hired: boolean): Promise<{ success: string }> {
  const { db, emit } = services;
  const gig = await ownedGig(db, clientId, gigId);
  const purchase = await completedPurchase(db, gig.id, diggerIdInput);
  if (!hired) {
    await db.transaction((tx) => removeHire(tx, emit, gig.id, purchase.diggerId));
    return { success: TRUST_MESSAGES.hireRemoved };
  }
  // A lead refunded in full was no lead: no hire can rest on it (issue 30, finding 4). Removing one stays possible.
  if (purchase.refunded) throw new AppError("conflict", TRUST_MESSAGES.refundedHire);
  // Marking twice is not an error: the second changes nothing and sends nothing.
  await db.transaction(async (tx) => {
    // The digger hears of it (named by the purchase the hire rests on), with nothing private of the client's.
    if (await recordHire(tx, emit, gig.id, purchase.diggerId)) await emit(tx, { kind: "hire.marked", purchaseId: purchase.id, diggerUserId: purchase.userId, diggerId: purchase.diggerId, gigTitle: gig.title });
  });
  return { success: TRUST_MESSAGES.hired };
}

/**
 * Records the hire of digger `diggerId` for gig `gigId`, the one way a hire is written (Mark as
 * Hired, and accepting a quote, conversations/accept-quote.ts): false when it was already recorded.
 * A new hire opens its two-way review window (issue 51). Both callers refuse a purchase refunded in full.
 */
export async function recordHire(tx: Transaction, emit: Emit, gigId: string, diggerId: string): Promise<boolean> {
  const inserted = await tx.insert(hires).values({ gigId, diggerId }).onConflictDoNothing().returning({ gigId: hires.gigId });
  if (inserted.length === 0) return false;
  await openReviewWindow(tx, emit, gigId, diggerId);
  return true;
}

/**
 * Removes the hire; the event "hire.removed" lets the conversations reopen a quote it accepted
 * (issue 33). Its review window closes: the reviews it still hid are discarded (issue 51).
 */
async function removeHire(tx: Transaction, emit: Emit, gigId: string, diggerId: string): Promise<void> {
  await tx.delete(hires).where(and(eq(hires.gigId, gigId), eq(hires.diggerId, diggerId)));
  await closeReviewWindow(tx, emit, gigId, diggerId);
  await emit(tx, { kind: "hire.removed", gigId, diggerId });
}
