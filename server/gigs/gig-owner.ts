/**
 * One of my gigs, as its owner edits or deletes it (issue 23). Only its owner finds it; anyone
 * else, whatever the id, gets the same 'Gig not found' as for a gig that does not exist.
 *
 * Each write locks the gig row first: purchases lock it too (fulfilment, holds), so a purchase
 * and an edit never interleave; what the edit checked is still true when it commits.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import type { Database, Transaction } from "../db/client.ts";
import { gigs } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { hasCompletedPurchase, hasPurchaseRow, isBought } from "../leads/spots.ts";

/** The page goes back to My Gigs with the message; a form sent is answered 404 where it stands. */
export function gigNotFound(page = false): AppError {
  return new AppError("not_found", "Gig not found", page ? { redirectTo: "/my-gigs" } : {});
}

/**
 * The owner's gig, not deleted (locked FOR UPDATE first when `lock`, inside a transaction), with
 * whether it is bought (a completed purchase or a checkout holding a spot), whether a purchase
 * completed, and whether it has any purchase row.
 */
export async function ownGig(db: Database | Transaction, clientId: string, gigId: string, lock: boolean) {
  if (!isUuid(gigId)) return null;
  const mine = and(eq(gigs.id, gigId), eq(gigs.clientId, clientId), isNull(gigs.deletedAt));
  if (lock) {
    const [locked] = await db.select({ id: gigs.id }).from(gigs).where(mine).for("update");
    if (!locked) return null;
  }
  // The gig's id as a parameter: a column inside a one-table select renders unqualified ("id"),
  // which the subquery would read as lead_purchases.id.
  const id = sql`${gigId}::uuid`;
  const [row] = await db
    .select({
      gig: gigs,
      bought: isBought(id),
      completed: hasCompletedPurchase(id),
      anyPurchase: hasPurchaseRow(id),
    })
    .from(gigs)
    .where(mine);
  return row ?? null;
}
