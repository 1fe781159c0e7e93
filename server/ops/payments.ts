/**
 * The console's Payments section (issue 22): refunds not yet confirmed by the provider (with
 * its last error and the attempts so far) and Retry; lead issues past their deadline that the
 * auto-approval has not settled; and today's purchases and refunds in totals (the UTC day).
 */
import { and, asc, count, eq, gte, lte, sql, sum } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, refunds } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import type { AppServices } from "../services.ts";
import { refuseOwnRecord, type Operator } from "./access.ts";
import { recordOperatorAction } from "./audit.ts";


/** At most this many of each list: a longer one is a fault to fix, not a queue to page through. */
const LIST_LIMIT = 100;

export const REFUND_RETRY_QUEUED = "Refund queued for another try.";

export async function paymentsOverview(db: Database) {
  const startOfDay = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
  const [pendingRefunds, overdueIssues, [purchases], [refunded]] = await Promise.all([
    db
      .select({
        id: refunds.id,
        amountCents: refunds.amountCents,
        reason: refunds.reason,
        attempts: refunds.attempts,
        lastError: refunds.lastError,
        createdAt: refunds.createdAt,
        gigTitle: gigs.title,
        diggerHandle: diggerProfiles.handle,
      })
      .from(refunds)
      .innerJoin(leadPurchases, eq(leadPurchases.id, refunds.leadPurchaseId))
      .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
      .where(eq(refunds.status, "pending"))
      .orderBy(asc(refunds.createdAt))
      .limit(LIST_LIMIT),
    db
      .select({ id: leadIssues.id, respondBy: leadIssues.respondBy, gigTitle: gigs.title, diggerHandle: diggerProfiles.handle, refundPercentage: leadIssues.refundPercentage })
      .from(leadIssues)
      .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
      .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadIssues.diggerId))
      .where(and(eq(leadIssues.status, "pending"), lte(leadIssues.respondBy, sql`now()`)))
      .orderBy(asc(leadIssues.respondBy))
      .limit(LIST_LIMIT),
    db
      .select({ count: count(), cents: sum(leadPurchases.amountPaidCents) })
      .from(leadPurchases)
      .where(and(eq(leadPurchases.status, "completed"), gte(leadPurchases.purchasedAt, startOfDay))),
    db
      .select({ count: count(), cents: sum(refunds.amountCents) })
      .from(refunds)
      .where(and(eq(refunds.status, "succeeded"), gte(refunds.completedAt, startOfDay))),
  ]);
  return {
    pendingRefunds: pendingRefunds.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    overdueIssues: overdueIssues.map((i) => ({ ...i, respondBy: i.respondBy.toISOString() })),
    today: {
      purchases: { count: Number(purchases?.count ?? 0), cents: Number(purchases?.cents ?? 0) },
      refunds: { count: Number(refunded?.count ?? 0), cents: Number(refunded?.cents ?? 0) },
    },
  };
}

const retrySchema = z.object({ refundId: z.uuid({ error: "Refund not found" }) });

/**
 * Retry: another `refund.send` job for a refund still pending. Safe to repeat: the provider is
 * asked with the refund's id as idempotency key, so it never refunds twice.
 */
export async function retryRefund(services: Pick<AppServices, "db" | "jobs">, operator: Operator, form: FormData): Promise<{ success: string }> {
  const { refundId } = parsedInput(retrySchema, Object.fromEntries(form));
  return services.db.transaction(async (tx) => {
    const [refund] = await tx
      .select({ id: refunds.id, status: refunds.status, diggerUserId: diggerProfiles.userId, clientId: gigs.consumerId })
      .from(refunds)
      .innerJoin(leadPurchases, eq(leadPurchases.id, refunds.leadPurchaseId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
      .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
      .where(eq(refunds.id, refundId))
      .for("no key update", { of: refunds });
    if (!refund) throw new AppError("not_found", "Refund not found");
    // Their own purchase's refund, or one on their own gig.
    refuseOwnRecord(operator.id, refund.diggerUserId, refund.clientId);
    if (refund.status !== "pending") throw new AppError("conflict", "This refund is already done.");
    await services.jobs.send("refund.send", { refundId }, { tx });
    await recordOperatorAction(tx, { operatorId: operator.id, action: "refund.retry", subjectType: "refund", subjectId: refundId, subjectUserId: refund.diggerUserId });
    return { success: REFUND_RETRY_QUEUED };
  });
}
