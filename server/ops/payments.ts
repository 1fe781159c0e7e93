/**
 * The console's Payments section (issue 22): refunds not yet confirmed by the provider (with
 * its last error and the attempts so far) and Retry; lead issues past their deadline that the
 * auto-approval has not settled; overdue issues awaiting an operator (a digger past their
 * automatic approvals, docs/decisions/0031) with Approve refund / Reject and the digger's refund
 * rate; and today's purchases and refunds in totals (the UTC day).
 */
import { and, asc, count, eq, gte, isNotNull, isNull, lte, sql, sum } from "drizzle-orm";
import { z } from "zod";
import { ISSUE_DECISIONS, ISSUE_MESSAGES } from "#core/lead-issues.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, refunds } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withPurchaseParties } from "../leads/purchase-parties.ts";
import { afterDecision, operatorDecision } from "../leads/resolve-issue.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { refundRates } from "./refund-rate.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";


/** At most this many of each list: a longer one is a fault to fix, not a queue to page through. */
const LIST_LIMIT = 100;

export const REFUND_RETRY_QUEUED = "Refund queued for another try.";

export async function paymentsOverview(db: Database) {
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
    pendingRefunds: pendingRefunds.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    overdueIssues: overdueIssues.map((i) => ({ ...i, respondBy: i.respondBy.toISOString() })),
    awaitingOperator: await withRefundRates(db, awaitingOperator),
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
export const retryRefund = defineOperation({
  access: operator,
  input: retrySchema,
  async run({ services, user: operator, input: { refundId } }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [refund] = await withPurchaseParties(
        tx
          .select({ id: refunds.id, status: refunds.status, diggerUserId: diggerProfiles.userId, clientId: gigs.clientId })
          .from(refunds)
          .innerJoin(leadPurchases, eq(leadPurchases.id, refunds.leadPurchaseId))
          .$dynamic(),
      )
        .where(eq(refunds.id, refundId))
        .for("no key update", { of: refunds });
      if (!refund) throw new AppError("not_found", "Refund not found");
      // Their own purchase's refund, or one on their own gig.
      refuseOwnRecord(operator.id, refund.diggerUserId, refund.clientId);
      if (refund.status !== "pending") throw new AppError("conflict", "This refund is already done.");
      // The audit row and the refund's job (jobs/starts.ts's refundJob), together.
      await services.emit(tx, { kind: "refund.retried", operatorId: operator.id, refundId, diggerUserId: refund.diggerUserId });
      return { success: REFUND_RETRY_QUEUED };
    });
  },
});

/** Each issue awaiting an operator with its dates as text and its digger's refund rate. */
async function withRefundRates<T extends { diggerId: string; respondBy: Date; operatorRespondBy: Date | null }>(db: Database, issues: T[]) {
  const rates = await refundRates(db, issues.map((issue) => issue.diggerId));
  return issues.map((issue) => ({
    ...issue,
    respondBy: issue.respondBy.toISOString(),
    operatorRespondBy: issue.operatorRespondBy!.toISOString(),
    refundRate: rates.get(issue.diggerId)!,
  }));
}

export const ISSUE_DECIDED_BY_OPERATOR = { approve: "Refund approved. The digger and the client are told.", reject: "Refund rejected. The digger and the client are told." } as const;

const issueDecisionSchema = z.object({
  issueId: z.uuid({ error: ISSUE_MESSAGES.issueNotFound }),
  decision: z.enum(ISSUE_DECISIONS, { error: ISSUE_MESSAGES.updateFailed }),
});

/**
 * Approve refund / Reject on an overdue issue awaiting an operator (decision 0031): the same
 * decision as the client's (resolve-issue.ts), `decided_by` 'operator', audited in its
 * transaction; past the operators' deadline the automatic approval answers instead (409). Both
 * sides are told with the issue-decided notices; the refund goes to the provider after the commit.
 */
export const decideOverdueIssue = defineOperation({
  access: operator,
  input: issueDecisionSchema,
  async run({ services, user: operator, input: { issueId, decision } }): Promise<{ success: string }> {
    // Before anything is written: an operator never decides an issue they are a party to
    // (issue 30, finding 8). The decision's audit row is its event's ("issue.decided-by-operator").
    const resolved = await operatorDecision(services, operator.id, issueId, decision, (parties) =>
      refuseOwnRecord(operator.id, parties.diggerUserId, parties.clientUserId),
    );
    await afterDecision(services, resolved);
    if (resolved.decidedBy === "automatic") throw new AppError("conflict", ISSUE_MESSAGES.operatorDeadlinePassed);
    return { success: ISSUE_DECIDED_BY_OPERATOR[decision] };
  },
});

/** The Payments section. */
export const paymentsPage = defineOperation({
  access: operator,
  async run({ services }) {
    return paymentsOverview(services.db);
  },
});
