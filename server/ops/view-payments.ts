/**
 * The console's Payments section (issue 22): refunds not yet confirmed by the provider (with
 * its last error and the attempts so far); lead issues past their deadline that the
 * auto-approval has not settled; overdue issues awaiting an operator (a digger past their
 * automatic approvals, docs/decisions/0031) with the digger's refund rate; and today's
 * purchases and refunds in totals (the UTC day). Retry is retry-refund.ts, Approve refund /
 * Reject decide-overdue-issue.ts.
 *
 * Issue 48: each issue awaiting an operator comes with what its purchase's thread shows, and a
 * Fake or Spam Request with its client's other gigs (decide-fake-request.ts); the reply guarantee's
 * refunds past a digger's bound are a queue of their own, oldest first, with the same evidence
 * (decide-guarantee.ts). Each list is one query (the evidence joined), the other gigs one more.
 */
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lte, sql, sum } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, refunds, threads } from "../db/schema.ts";
import { withEvidenceTexts } from "../leads/evidence-texts.ts";
import { clientUser, withPurchaseParties } from "../leads/purchase-parties.ts";
import { evidenceColumns } from "../leads/thread-evidence.ts";
import { phoneVerifiedText } from "../leads/phone-verified-text.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { refundRates } from "./refund-rate.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";

/** At most this many of each list: a longer one is a fault to fix, not a queue to page through. */
const LIST_LIMIT = 100;

async function paymentsOverview(db: Database, time: ReaderTime, verificationOn: boolean) {
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
  const [pendingRefunds, overdueIssues, awaitingOperator, guaranteeQueue, [purchases], [refunded]] = await Promise.all([
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
        .select({
          ...issueRow,
          operatorRespondBy: leadIssues.operatorRespondBy,
          issueType: leadIssues.issueType,
          description: leadIssues.description,
          gigId: gigs.id,
          clientId: gigs.clientId,
          clientName: clientUser.name,
          phoneVerifiedAt: leadPurchases.phoneVerifiedAt,
          ...evidenceColumns,
        })
        .from(leadIssues)
        .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
        .leftJoin(threads, eq(threads.purchaseId, leadPurchases.id))
        .$dynamic(),
    )
      .where(and(overdue, isNotNull(leadIssues.escalatedAt), eq(leadPurchases.status, "completed")))
      .orderBy(asc(leadIssues.operatorRespondBy), asc(leadIssues.id))
      .limit(LIST_LIMIT),
    // The reply guarantee's refunds past a digger's bound, oldest first (lead_purchases_guarantee_escalated_idx).
    withPurchaseParties(
      db
        .select({
          purchaseId: leadPurchases.id,
          gigId: gigs.id,
          gigTitle: gigs.title,
          diggerHandle: diggerProfiles.handle,
          diggerUserId: diggerProfiles.userId,
          clientId: gigs.clientId,
          clientName: clientUser.name,
          amountPaidCents: leadPurchases.amountPaidCents,
          ...evidenceColumns,
        })
        .from(leadPurchases)
        .leftJoin(threads, eq(threads.purchaseId, leadPurchases.id))
        .$dynamic(),
    )
      .where(eq(leadPurchases.guaranteeOutcome, "escalated"))
      .orderBy(asc(leadPurchases.guaranteeSettledAt), asc(leadPurchases.id))
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
    awaitingOperator: await withOtherGigs(
      db,
      await withRefundRates(
        db,
        awaitingOperator.map(({ phoneVerifiedAt, ...issue }) => ({
          ...withEvidenceTexts(issue, time),
          // A Wrong Phone Number report on a number verified at purchase (issue 49).
          phoneVerifiedText: phoneVerifiedText(verificationOn, issue.issueType, phoneVerifiedAt, time),
        })),
        time,
      ),
      time,
    ),
    guaranteeQueue: guaranteeQueue.map((purchase) => withEvidenceTexts(purchase, time)),
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

/** How many of a client's other gigs a fake-request report shows beside it. */
const OTHER_GIGS = 10;

/**
 * Each Fake or Spam Request with its client's other gigs (newest first, at most OTHER_GIGS: their
 * titles, dates and status), read in one query for every client of the list; other issues get none.
 */
async function withOtherGigs<T extends { issueType: string; gigId: string; clientId: string }>(db: Database, issues: T[], time: ReaderTime) {
  const clientIds = [...new Set(issues.filter((issue) => issue.issueType === "fake_request").map((issue) => issue.clientId))];
  const newest = db
    .select({
      id: gigs.id,
      clientId: gigs.clientId,
      title: gigs.title,
      status: gigs.status,
      hidden: sql<boolean>`${gigs.hiddenAt} is not null`.as("hidden"),
      createdAt: gigs.createdAt,
      rank: sql<number>`row_number() over (partition by ${gigs.clientId} order by ${gigs.createdAt} desc, ${gigs.id} desc)`.as("rank"),
    })
    .from(gigs)
    .where(inArray(gigs.clientId, clientIds))
    .as("newest");
  // One more than shown: the reported gig itself is left out of its own list.
  const rows =
    clientIds.length === 0
      ? []
      : await db
          .select()
          .from(newest)
          .where(lte(newest.rank, OTHER_GIGS + 1))
          .orderBy(asc(newest.clientId), desc(newest.createdAt), desc(newest.id));
  return issues.map((issue) => ({
    ...issue,
    otherGigs:
      issue.issueType !== "fake_request"
        ? null
        : rows
            .filter((gig) => gig.clientId === issue.clientId && gig.id !== issue.gigId)
            .slice(0, OTHER_GIGS)
            .map((gig) => ({ id: gig.id, title: gig.title, statusText: otherGigStatus(gig), createdAtText: time.date(gig.createdAt) })),
  }));
}

/** 'Open', 'Closed', 'Hidden': a gig of the client's as the operator reads it. */
const otherGigStatus = (gig: { status: string; hidden: boolean }) => (gig.hidden ? "Hidden" : gig.status === "open" ? "Open" : "Closed");

/** The Payments section. */
export const paymentsPage = defineOperation({
  access: operator,
  async run({ services, user }) {
    return paymentsOverview(services.db, readerTime(user.timeZone, services.config), phoneVerificationOn(services.config));
  },
});
