/**
 * Spots on a lead (docs/decisions/0019-buyer-cap-and-holds.md, amended by 0030): a gig is full
 * when its completed purchases (gigs.purchase_count) reach its cap; a live hold, a pending
 * purchase started within HOLD_MINUTES, keeps its spot from other buyers but never fills the
 * lead for Browse Gigs. Written once here, as SQL, for the purchase, its completion, the gig's
 * page and the edit and delete rules.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { HOLD_MINUTES, NEW_ACCOUNT_DAYS } from "#core/lead-spots.ts";
import type { Database, Transaction } from "../db/client.ts";
import { diggerProfiles, leadPurchases, refunds, users } from "../db/schema.ts";

/** A pending purchase still holding its spot. */
export const liveHold = (): SQL =>
  sql`${leadPurchases.status} = 'pending' and ${leadPurchases.createdAt} > now() - make_interval(mins => ${HOLD_MINUTES})`;

/**
 * A checkout that lapsed: it ended unpaid, cancelled (Cancel, the provider's expiry) or run out
 * while still pending. A failed session creation (no session: our fault) and a refunded payment
 * (it was paid) are no lapse (decision 0030).
 */
export const lapsed = (): SQL =>
  sql`${leadPurchases.providerSessionId} is not null and (${leadPurchases.status} = 'cancelled' or (${leadPurchases.status} = 'pending' and not (${liveHold()}))) and not exists (select 1 from ${refunds} where ${refunds.leadPurchaseId} = ${leadPurchases.id})`;

/**
 * Whether the digger profile `diggerId` belongs to a new account: made less than NEW_ACCOUNT_DAYS
 * ago, and no purchase of theirs completed. New accounts' live holds are capped per network
 * (decision 0030, issue 45). Pass the id as a parameter (sql`${id}::uuid`) or a qualified column:
 * a one-table select renders its columns unqualified, which the subqueries would read as their own.
 */
export const newAccount = (diggerId: SQL): SQL<boolean> =>
  sql<boolean>`(exists (select 1 from ${diggerProfiles} d join ${users} u on u.id = d.user_id where d.id = ${diggerId} and u.created_at > now() - make_interval(days => ${NEW_ACCOUNT_DAYS})) and not exists (select 1 from ${leadPurchases} c where c.digger_id = ${diggerId} and c.status = 'completed'))`.mapWith(
    Boolean,
  );

/** The live holds that new accounts started from `network` (lead_purchases_network_hold_idx). */
export async function liveNewAccountHolds(tx: Transaction, network: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(leadPurchases)
    .where(and(eq(leadPurchases.network, network), liveHold(), newAccount(sql.raw('"lead_purchases"."digger_id"'))));
  return row?.n ?? 0;
}

/** The live holds on gig `gigId` (a column, for a correlated count), found by lead_purchases_hold_idx. */
const liveHoldsOf = (gigId: AnyPgColumn | SQL): SQL<number> =>
  sql<number>`(select count(*)::int from ${leadPurchases} where ${leadPurchases.gigId} = ${gigId} and ${liveHold()})`;

/**
 * Whether the gig has any purchase row at all (completed, a checkout, or a cancelled one): a gig
 * with one is marked deleted rather than deleted (server/gigs/remove-gig.ts). Pass the id as a parameter
 * (sql`${id}::uuid`) when the outer select has one table: its columns render unqualified there.
 */
export const hasPurchaseRow = (gigId: AnyPgColumn | SQL): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${leadPurchases} where ${leadPurchases.gigId} = ${gigId})`.mapWith(Boolean);

/**
 * Whether the gig is bought: a completed purchase, or a checkout holding a spot (its digger pays
 * for the gig as it is described). A cancelled or run-out checkout is no purchase: it neither
 * locks the gig's fields nor keeps its client from deleting it (server/gigs/save-gig.ts, remove-gig.ts, issue
 * 30). Pass the id as a parameter (sql`${id}::uuid`) when the outer select has one table: its
 * columns render unqualified there.
 */
export const isBought = (gigId: AnyPgColumn | SQL): SQL<boolean> =>
  sql<boolean>`(${hasCompletedPurchase(gigId)} or ${liveHoldsOf(gigId)} > 0)`.mapWith(Boolean);

/** Whether a purchase of the gig completed: only then may its client no longer delete it (decision 0030). */
export const hasCompletedPurchase = (gigId: AnyPgColumn | SQL): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${leadPurchases} where ${leadPurchases.gigId} = ${gigId} and ${leadPurchases.status} = 'completed')`.mapWith(Boolean);

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
