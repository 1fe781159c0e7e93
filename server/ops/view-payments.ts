/**
 * The console's Payments section (issue 22): refunds not yet confirmed by the provider (with
 * its last error and the attempts so far); lead issues past their deadline that the
 * auto-approval has not settled; overdue issues awaiting an operator (a digger past their
 * automatic approvals, docs/decisions/0031) with the digger's refund rate; and today's
 * purchases and refunds in totals (the UTC day). Retry is retry-refund.ts, Approve refund /
 * Reject decide-overdue-issue.ts.
 */
import { and, asc, count, eq, gte, isNotNull, isNull, lte, sql, sum } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, refunds } from "../db/schema.ts";
import { withPurchaseParties } from "../leads/purchase-parties.ts";
import { refundRates } from "./refund-rate.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";

/** At most this many of each list: a longer one is a fault to fix, not a queue to page through. */
const LIST_LIMIT = 100;

async function paymentsOverview(db: Database, time: ReaderTime) {
  const startOfDay = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
  const issueRow = {
    id: leadIssues.id,
    respondBy: leadIssues.respondBy,
    gigTitle: gigs.title,
    diggerId: leadIssues.diggerId,
    diggerHandle: diggerProfiles.handle,
    refundPercentage: leadIssues.refundPercentage,
    amountPaidCents: leadPurchases.amountPaidCents,
  };
  const overdue = and(eq(leadIssues.status, "pending"), lte(leadIssues.respondBy, sql`now()`));
  const [pendingRefunds, overdueIssues, awaitingOperator, [purchases], [refunded]] = await Promise.all([
    withPurchaseParties(
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
        .$dynamic(),
    )
      .where(eq(refunds.status, "pending"))
      .orderBy(asc(refunds.createdAt))
      .limit(LIST_LIMIT),
    withPurchaseParties(db.select(issueRow).from(leadIssues).innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId)).$dynamic())
      .where(and(overdue, isNull(leadIssues.escalatedAt)))
      .orderBy(asc(leadIssues.respondBy))
      .limit(LIST_LIMIT),
    withPurchaseParties(
      db
        .select({ ...issueRow, operatorRespondBy: leadIssues.operatorRespondBy, issueType: leadIssues.issueType, description: leadIssues.description })
        .from(leadIssues)
        .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
        .$dynamic(),
    )
      .where(and(overdue, isNotNull(leadIssues.escalatedAt), eq(leadPurchases.status, "completed")))
      .orderBy(asc(leadIssues.operatorRespondBy), asc(leadIssues.id))
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
    pendingRefunds: pendingRefunds.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), createdAtText: time.dateTime(r.createdAt) })),
    overdueIssues: overdueIssues.map((i) => ({ ...i, respondBy: i.respondBy.toISOString(), respondByText: time.dateTime(i.respondBy) })),
    awaitingOperator: await withRefundRates(db, awaitingOperator, time),
    today: {
      purchases: { count: Number(purchases?.count ?? 0), cents: Number(purchases?.cents ?? 0) },
      refunds: { count: Number(refunded?.count ?? 0), cents: Number(refunded?.cents ?? 0) },
    },
  };
}

/** Each issue awaiting an operator with its dates as text (the operator's zone) and its digger's refund rate. */
async function withRefundRates<T extends { diggerId: string; respondBy: Date; operatorRespondBy: Date | null }>(db: Database, issues: T[], time: ReaderTime) {
  const rates = await refundRates(db, issues.map((issue) => issue.diggerId));
  return issues.map((issue) => ({
    ...issue,
    respondBy: issue.respondBy.toISOString(),
    operatorRespondBy: issue.operatorRespondBy!.toISOString(),
    respondByText: time.dateTime(issue.respondBy),
    operatorRespondByText: time.dateTime(issue.operatorRespondBy!),
    refundRate: rates.get(issue.diggerId)!,
  }));
}

/** The Payments section. */
export const paymentsPage = defineOperation({
  access: operator,
  async run({ services, user }) {
    return paymentsOverview(services.db, readerTime(user.timeZone, services.config));
  },
});
