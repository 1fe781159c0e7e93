/**
 * Whether a gig's lead is for sale: written once, here, as SQL (issue 31, docs/decisions/
 * 0037-one-rule-for-sale-and-purchase-parties.md). Browse Gigs, the gig page's Buy, starting a
 * purchase, completing a paid checkout, the landing's gigs, the sitemap and the lead alerts all
 * ask `forSale()` or `whyNotForSale()`, so that none of them can drift from the others.
 *
 * A lead is for sale when its gig is
 * - shown: published (its client confirmed their e-mail, decision 0012), not deleted by its
 *   client (migration 0025), not hidden by an operator, and posted by an account that is neither
 *   suspended (issue 22) nor deleted; otherwise it is gone, as if it did not exist;
 * - open: not closed by its client;
 * - not full: its completed purchases leave a spot (decisions 0019 and 0030). Checkouts holding
 *   spots never take a gig off the lists (issue 30); they only keep other buyers out (`held`);
 * - not hired: no digger is hired for it (an accepted quote or Mark as Hired, issue 47), unless
 *   its client chose 'Keep it open for more diggers';
 * - not paused: its client has opened at least one of its threads 48 hours after a covered first
 *   answer (gigs.awaiting_reply, the reply guarantee's check, issue 48).
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { NotForSale } from "#core/lead-spots.ts";
import type { Database, Transaction } from "../db/client.ts";
import { gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { liveHold } from "./spots.ts";

/** Taken down by an operator: hidden, or posted by a suspended account (issue 22). */
export const withdrawn = (): SQL<boolean> => sql<boolean>`(${gigs.hiddenAt} is not null or ${gigs.ownerSuspended})`;

/**
 * Anyone may see the gig: published, neither deleted nor withdrawn, and its client's account not
 * deleted (deleting it also closes the gig: privacy/deletion.ts). Every term is of the gig's own
 * row (owner_deleted is kept by a trigger, migration 0032), so that lists keep to their indexes.
 */
const shown = (): SQL => sql`(${gigs.published} and ${gigs.deletedAt} is null and not ${withdrawn()} and not ${gigs.ownerDeleted})`;

const open = (): SQL => sql`(${gigs.status} = 'open')`;

/**
 * Completed purchases leave a spot. Together with `open` and `published` these are the partial
 * indexes' predicate (server/db/schema.ts), so every list that asks `forSale()` uses them and a
 * full gig leaves the indexes.
 */
const spotsLeft = (): SQL => sql`(${gigs.purchaseCount} < ${gigs.maxDiggers})`;

/**
 * No hire holds it (gigs.hired is kept by a trigger on hires, migration 0050), or its client keeps
 * it open for more diggers. Also of the partial indexes' predicate: a hired gig leaves them.
 */
const notHired = (): SQL => sql`(not ${gigs.hired} or ${gigs.openForMore})`;

/**
 * Nobody can reach its client: paused by the reply guarantee's check until the client opens one of
 * its threads (issue 48). Also of the partial indexes' predicate.
 */
const notPaused = (): SQL => sql`(not ${gigs.awaitingReply})`;

/** The rule, for a query over `gigs`: the gig's lead is for sale. */
export const forSale = (): SQL => sql`(${open()} and ${gigs.published} and ${spotsLeft()} and ${notHired()} and ${notPaused()} and ${shown()})`;

/**
 * Why the lead of the gig in the query is not for sale, or null when it is. `held` is every spot
 * left held by live checkouts, not counting purchase `exceptPurchase` (the checkout completing).
 * `paused` comes after the spots: a checkout completing on a paused gig completes only if a spot
 * is left for it (leads/fulfilment.ts), and a full gig is full whether paused or not.
 */
export const whyNotForSaleOf = (exceptPurchase?: string): SQL<NotForSale | null> => {
  const others = exceptPurchase === undefined ? sql`` : sql` and ${leadPurchases.id} <> ${exceptPurchase}::uuid`;
  const holds = sql`(select count(*)::int from ${leadPurchases} where ${leadPurchases.gigId} = ${gigs.id} and ${liveHold()}${others})`;
  // Nested, so that its columns are written with their table even in a select of one table.
  const heldFull = sql`(${gigs.purchaseCount} + ${holds} >= ${gigs.maxDiggers})`;
  return sql<NotForSale | null>`case
    when not ${shown()} then 'gone'
    when not ${open()} then 'closed'
    when not ${notHired()} then 'hired'
    when not ${spotsLeft()} then 'full'
    when ${heldFull} then 'held'
    when not ${notPaused()} then 'paused'
  end`;
};

/**
 * Why the lead of gig `gigId` is not for sale, or null when it is; a gig that does not exist is
 * gone. Under a lock of the gig's row, ask in a statement after the one that took the lock: on
 * PostgreSQL (READ COMMITTED) a locking statement re-reads the locked row once it gets it, but
 * not the purchases its subqueries count, and so would oversell.
 */
export async function whyNotForSale(db: Database | Transaction, gigId: string, exceptPurchase?: string): Promise<NotForSale | null> {
  const [row] = await db.select({ why: whyNotForSaleOf(exceptPurchase) }).from(gigs).where(eq(gigs.id, gigId));
  return row ? row.why : "gone";
}

/** A gig that does not exist, or not for this person: back to the list (spec section 8). */
export function gigNotFound(): AppError {
  return new AppError("not_found", "Gig not found", { redirectTo: "/browse-gigs" });
}
