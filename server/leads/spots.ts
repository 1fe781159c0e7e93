/**
 * Spots on a lead (docs/decisions/0019-buyer-cap-and-holds.md): a gig's spots taken are its
 * completed purchases (gigs.purchase_count) plus its live holds, the pending purchases started
 * within HOLD_MINUTES. Written once here, as SQL, for the purchase, its completion, the gig's
 * page and Browse Gigs.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { HOLD_MINUTES } from "#core/lead-spots.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, leadPurchases } from "../db/schema.ts";

/** A pending purchase still holding its spot. */
export const liveHold = (): SQL =>
  sql`${leadPurchases.status} = 'pending' and ${leadPurchases.createdAt} > now() - make_interval(mins => ${HOLD_MINUTES})`;

/** The live holds on gig `gigId` (a column, for a correlated count), found by lead_purchases_hold_idx. */
export const liveHoldsOf = (gigId: AnyPgColumn | SQL): SQL<number> =>
  sql<number>`(select count(*)::int from ${leadPurchases} where ${leadPurchases.gigId} = ${gigId} and ${liveHold()})`;

/**
 * Whether the gig has any purchase row at all (completed, a checkout, or a cancelled one): a gig
 * with one cannot be deleted (server/gigs/edit-gig.ts). Pass the id as a parameter
 * (sql`${id}::uuid`) when the outer select has one table: its columns render unqualified there.
 */
export const hasPurchaseRow = (gigId: AnyPgColumn | SQL): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${leadPurchases} where ${leadPurchases.gigId} = ${gigId})`.mapWith(Boolean);

/** Spots taken on the gig of these columns: completed purchases plus live holds. */
export const spotsTaken = (gig: { id: AnyPgColumn; purchaseCount: AnyPgColumn }): SQL<number> =>
  sql<number>`(${gig.purchaseCount} + ${liveHoldsOf(gig.id)})`.mapWith(Number);

/** Whether the digger profile of user `userId` holds a live checkout for gig `gigId` (Buy continues it). */
export async function holdsSpot(db: Database, gigId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: leadPurchases.id })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(and(eq(leadPurchases.gigId, gigId), eq(diggerProfiles.userId, userId), liveHold()))
    .limit(1);
  return Boolean(row);
}
