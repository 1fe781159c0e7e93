/**
 * A digger's refund rate, as operators see it beside their issues and on their user page
 * (issue 30; docs/decisions/0031-automatic-approval-bound.md): of their completed purchases of
 * the last REFUND_RATE_DAYS days, how many were refunded through an approved issue (by anyone:
 * client, operator or the deadline). Refunds the digger did not ask for (a duplicate payment, a
 * lead gone during the checkout) are not theirs and do not count.
 */
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { REFUND_RATE_DAYS, type RefundRate } from "#core/lead-issues.ts";
import type { Database } from "../db/client.ts";
import { leadPurchases } from "../db/schema.ts";

/** The refund rate of each of `diggerIds` (a digger without purchases: 0 of 0). */
export async function refundRates(db: Database, diggerIds: string[]): Promise<Map<string, RefundRate>> {
  const rates = new Map(diggerIds.map((id) => [id, { purchases: 0, refunded: 0 }]));
  if (diggerIds.length === 0) return rates;
  const rows = await db
    .select({
      diggerId: leadPurchases.diggerId,
      purchases: count(),
      // Spelled out: in a one-table select Drizzle leaves columns unqualified ("id" would be the refund's).
      refunded: sql<number>`count(*) filter (where exists (select 1 from refunds r where r.lead_purchase_id = lead_purchases.id and r.reason = 'issue_approved'))::int`,
    })
    .from(leadPurchases)
    .where(
      and(
        inArray(leadPurchases.diggerId, [...new Set(diggerIds)]),
        eq(leadPurchases.status, "completed"),
        gt(leadPurchases.purchasedAt, sql`now() - make_interval(days => ${REFUND_RATE_DAYS}::int)`),
      ),
    )
    .groupBy(leadPurchases.diggerId);
  for (const row of rows) rates.set(row.diggerId, { purchases: Number(row.purchases), refunded: Number(row.refunded) });
  return rates;
}
