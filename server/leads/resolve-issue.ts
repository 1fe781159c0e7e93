/**
 * The issues dialog of /my-gigs, deciding (spec sections 2, 4, 8; design.md sections 1, 5, 6):
 * the owner of a gig approves or rejects an issue a digger reported on its lead. Approving
 * refunds amount_paid x refund_percentage / 100 exactly once: the issue is locked and checked
 * in the transaction that records the refund, and refunds_issue_key allows one refund per
 * issue. Anyone but the gig's owner gets 404 and nothing else.
 *
 * The automatic approval of an issue whose client did not answer by its `respond_by`
 * (issue-deadlines.ts) and an operator's decision (ops/decide-overdue-issue.ts) take the same decision
 * through `decideLocked` and `afterDecision`: one code path records and sends a refund, whoever
 * decides. Past AUTO_APPROVALS_PER_DIGGER automatic approvals in AUTO_APPROVAL_WINDOW_DAYS, an
 * overdue issue goes to the operators instead (`settleOverdueLocked`; docs/decisions/0031).
 *
 * A fake-request report (issue 48) accuses the client: the client never decides it, and no
 * deadline approves it automatically; an operator does (ops/decide-fake-request.ts). An issue is
 * never refunded more than what is left of its purchase (a refund by the reply guarantee, or
 * another, may have come first).
 */
import { and, count, eq, gt, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { isUuid } from "#core/ids.ts";
import {
  AUTO_APPROVAL_WINDOW_DAYS,
  AUTO_APPROVALS_PER_DIGGER,
  ISSUE_MESSAGES,
  issueDecisionSchema,
  refundCents,
  type IssueDecider,
  type IssueDecision,
} from "#core/lead-issues.ts";
import type { Transaction } from "../db/client.ts";
import { gigs, leadIssues, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { clientUser, diggerUser, withPurchaseParties } from "./purchase-parties.ts";
import { lockDigger, refundableCents } from "./guarantee-refund.ts";
import { recordRefund, sendRefund } from "./refunds.ts";
import { defineOperation } from "../operation.ts";
import { GIG_ISSUES_ACCESS } from "./gig-issues.ts";

/** A decision taken, with what both sides are told of it. */
export interface Resolved {
  issueId: string;
  decision: IssueDecision;
  decidedBy: IssueDecider;
  /** Approved at once: a Wrong Phone Number report on a number not verified when the lead was bought (issue 49). */
  unverifiedPhone: boolean;
  refundId: string | null;
  refundCents: number;
  refundPercentage: number;
  issueType: string;
  gigTitle: string;
  respondBy: Date;
  digger: { userId: string; email: string };
  client: { userId: string; email: string };
}

/**
 * Locks one issue on a completed purchase (only a completed purchase was paid for: an issue
 * on any other is never refunded) that also matches `where`, and reads what the decision
 * needs. `skipLocked`: an issue another transaction is deciding right now is passed over.
 */
export async function lockIssue(tx: Transaction, issueId: string, where: SQL | undefined, { skipLocked = false } = {}) {
  const locked = tx
    .select({
      status: leadIssues.status,
      issueType: leadIssues.issueType,
      refundPercentage: leadIssues.refundPercentage,
      respondBy: leadIssues.respondBy,
      overdue: sql<boolean>`${leadIssues.respondBy} <= now()`,
      escalated: sql<boolean>`${leadIssues.escalatedAt} is not null`,
      operatorOverdue: sql<boolean>`${leadIssues.operatorRespondBy} <= now()`,
      diggerId: leadIssues.diggerId,
      leadPurchaseId: leadPurchases.id,
      amountPaidCents: leadPurchases.amountPaidCents,
      gigId: gigs.id,
      gigTitle: gigs.title,
      digger: { userId: diggerUser.id, email: diggerUser.email },
      client: { userId: clientUser.id, email: clientUser.email },
    })
    .from(leadIssues)
    .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
    .$dynamic();
  const [issue] = await withPurchaseParties(locked)
    .where(and(eq(leadIssues.id, issueId), eq(leadPurchases.status, "completed"), where))
    .for("update", skipLocked ? { of: leadIssues, skipLocked: true } : { of: leadIssues });
  return issue;
}
export type LockedIssue = NonNullable<Awaited<ReturnType<typeof lockIssue>>>;

/**
 * The one decision, on an issue locked (FOR UPDATE) and still pending in transaction `tx`:
 * sets the status, resolved_at and who decided, and approving records the refund in the same
 * transaction (refunds_issue_key allows one per issue).
 */
export async function decideLocked(
  tx: Transaction,
  services: Tellers,
  issueId: string,
  issue: LockedIssue,
  decision: IssueDecision,
  decidedBy: IssueDecider,
  { unverifiedPhone = false } = {},
): Promise<Resolved> {
  await tx
    .update(leadIssues)
    .set({ status: decision === "approve" ? "approved" : "rejected", resolvedAt: sql`now()`, decidedBy })
    .where(and(eq(leadIssues.id, issueId), eq(leadIssues.status, "pending")));
  const { issueType, refundPercentage, gigTitle, respondBy, digger, client } = issue;
  const told = { issueId, decision, decidedBy, unverifiedPhone, issueType, refundPercentage, gigTitle, respondBy, digger, client };
  const amountCents = decision === "reject" ? 0 : Math.min(refundCents(issue.amountPaidCents, refundPercentage), await refundableCents(tx, issue.leadPurchaseId));
  const refundId =
    amountCents > 0
      ? await recordRefund(tx, services.emit, { leadPurchaseId: issue.leadPurchaseId, leadIssueId: issueId, reason: "issue_approved", amountCents })
      : null;
  const resolved = { ...told, refundId, refundCents: amountCents };
  // Both sides hear of it with the decision itself: the digger always, the client of an
  // automatic approval (of an operator's: operatorDecision, with the operator's audit row).
  await services.emit(tx, { kind: "issue.decided", ...resolved });
  if (decidedBy === "automatic") await services.emit(tx, { kind: "issue.auto-approved", ...resolved });
  return resolved;
}

/** What deciding needs to record the refund's job and tell both sides. */
export type Tellers = Pick<AppServices, "jobs" | "emit" | "config">;

/** The report the client is never asked about, and no deadline approves (issue 48). */
export const FAKE_REQUEST = "fake_request";
const notFakeRequest = ne(leadIssues.issueType, FAKE_REQUEST);

/** Due issues not approved automatically: they went to the operators (decision 0031). */
export const ESCALATED = "escalated";

/**
 * Digger `diggerId`'s issues approved automatically in the last AUTO_APPROVAL_WINDOW_DAYS
 * (decision 0031's bound; a Wrong Phone Number report approved at once counts too, issue 49).
 * Lock the digger's profile row first (`lockDigger`) so that two of their issues are counted in turn.
 */
export async function automaticApprovalsInWindow(tx: Transaction, diggerId: string): Promise<number> {
  const [recent] = await tx
    .select({ count: count() })
    .from(leadIssues)
    .where(
      and(
        eq(leadIssues.diggerId, diggerId),
        eq(leadIssues.decidedBy, "automatic"),
        gt(leadIssues.resolvedAt, sql`now() - make_interval(days => ${AUTO_APPROVAL_WINDOW_DAYS}::int)`),
      ),
    );
  return Number(recent?.count ?? 0);
}

/**
 * An overdue issue, locked and pending in `tx`, whatever asks (the job, or the client's late
 * click): approved automatically while its digger had fewer than AUTO_APPROVALS_PER_DIGGER
 * automatic approvals in AUTO_APPROVAL_WINDOW_DAYS; past that it goes to the operators with
 * a deadline of their own (LEAD_ISSUE_RESPONSE_HOURS more), and once that has passed too it is
 * approved automatically after all: an honest refund never waits forever. The digger's profile
 * row is locked first (FOR NO KEY UPDATE, as the figures' trigger does), so two issues of one
 * digger settled at once are counted one after the other.
 */
async function settleOverdueLocked(tx: Transaction, services: Tellers, issueId: string, issue: LockedIssue): Promise<Resolved | typeof ESCALATED | null> {
  if (issue.issueType === FAKE_REQUEST) return null;
  if (issue.escalated) return issue.operatorOverdue ? decideLocked(tx, services, issueId, issue, "approve", "automatic") : null;
  await lockDigger(tx, issue.diggerId);
  if ((await automaticApprovalsInWindow(tx, issue.diggerId)) < AUTO_APPROVALS_PER_DIGGER) return decideLocked(tx, services, issueId, issue, "approve", "automatic");
  await tx
    .update(leadIssues)
    .set({ escalatedAt: sql`now()`, operatorRespondBy: sql`now() + make_interval(hours => ${services.config.leadIssueResponseHours}::int)` })
    .where(eq(leadIssues.id, issueId));
  return ESCALATED;
}

/**
 * Approves or rejects a pending issue on a gig of `clientId`, in one transaction: the
 * issue row is locked (FOR UPDATE), so of two concurrent decisions (the client's, or the
 * client's and the automatic approval) the second sees the first's result and changes
 * nothing ('This issue has already been resolved'). Past the issue's `respond_by` the
 * issue is settled as the job would settle it instead (approved automatically, or sent to
 * the operators: ESCALATED, or null while the operators have it). An issue on a purchase that
 * is not completed (never paid) is not found: nothing to refund.
 */
async function resolveIssue(
  services: Tellers & Pick<AppServices, "db">,
  clientId: string,
  gigId: string,
  issueId: string,
  decision: IssueDecision,
): Promise<Resolved | typeof ESCALATED | null> {
  const notFound = new AppError("not_found", ISSUE_MESSAGES.updateFailed);
  if (!isUuid(gigId) || !isUuid(issueId)) throw notFound;
  return services.db.transaction(async (tx) => {
    const issue = await lockIssue(tx, issueId, and(eq(gigs.id, gigId), eq(gigs.clientId, clientId), notFakeRequest));
    if (!issue) throw notFound;
    if (issue.status !== "pending") throw new AppError("conflict", ISSUE_MESSAGES.alreadyResolved);
    // The deadline is binding: past it, the decision is the automatic approval's, taken now
    // rather than at the job's next run, so the outcome never depends on the job's timing.
    if (issue.overdue) return settleOverdueLocked(tx, services, issueId, issue);
    return decideLocked(tx, services, issueId, issue, decision, "client");
  });
}

/** Pending, past the client's deadline, and not waiting for the operators (or past theirs too); never a fake request. */
export const dueForSettling = and(
  eq(leadIssues.status, "pending"),
  notFakeRequest,
  lte(leadIssues.respondBy, sql`now()`),
  or(isNull(leadIssues.escalatedAt), lte(leadIssues.operatorRespondBy, sql`now()`)),
);

/**
 * Settles issue `issueId` if it is still due (`dueForSettling`), in one transaction: approved
 * automatically, or ESCALATED to the operators; null when it is not due (decided meanwhile, not
 * yet due, or being decided by another transaction right now: SKIP LOCKED passes it over, and
 * that one wins).
 */
export async function autoApproveIssue(services: Tellers & Pick<AppServices, "db">, issueId: string): Promise<Resolved | typeof ESCALATED | null> {
  return services.db.transaction(async (tx) => {
    const issue = await lockIssue(tx, issueId, dueForSettling, { skipLocked: true });
    if (!issue) return null;
    return settleOverdueLocked(tx, services, issueId, issue);
  });
}

/**
 * An operator approves or rejects issue `issueId`, which went to the operators (escalated) and
 * is still pending (404 for any other: not found, 409 when decided). Past the operators' own
 * deadline the automatic approval answers instead, as for a client's late click (decision 0020).
 * `check` sees the issue's digger and client accounts before anything is written (an
 * operator never decides on a record about themself: issue 30, finding 8). The event
 * "issue.decided-by-operator" writes the audit row and tells the client, in the decision's
 * transaction.
 */
export async function operatorDecision(
  services: Tellers & Pick<AppServices, "db">,
  operatorId: string,
  issueId: string,
  decision: IssueDecision,
  check: (parties: IssueParties) => void | Promise<void>,
): Promise<Resolved> {
  const notFound = new AppError("not_found", ISSUE_MESSAGES.issueNotFound);
  if (!isUuid(issueId)) throw notFound;
  return services.db.transaction(async (tx) => {
    const issue = await lockIssue(tx, issueId, and(sql`${leadIssues.escalatedAt} is not null`, notFakeRequest));
    if (!issue) throw notFound;
    const parties = { diggerUserId: issue.digger.userId, clientUserId: issue.client.userId };
    await check(parties);
    if (issue.status !== "pending") throw new AppError("conflict", ISSUE_MESSAGES.alreadyResolved);
    if (issue.operatorOverdue) return decideLocked(tx, services, issueId, issue, "approve", "automatic");
    const resolved = await decideLocked(tx, services, issueId, issue, decision, "operator");
    await services.emit(tx, { kind: "issue.decided-by-operator", ...resolved, operatorId });
    return resolved;
  });
}

/** The accounts an issue is about: its digger's and its gig's client's. */
export interface IssueParties {
  diggerUserId: string;
  clientUserId: string;
}

type AfterServices = Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "emit" | "config">;

/**
 * After the decision's commit (which told both sides): the refund goes to the provider with
 * its id as idempotency key (a failure leaves it pending for its `refund.send` job).
 */
export async function afterDecision(services: AfterServices, resolved: Resolved): Promise<void> {
  if (resolved.refundId) await sendRefund(services, resolved.refundId);
}

/**
 * The owner `clientId` approves or rejects one issue of gig `gigId` (the dialog's form, parsed
 * by `issueDecisionSchema`); then the refund goes to the provider and the digger is e-mailed.
 * Returns the decision.
 */
async function decideIssue(
  services: AfterServices,
  clientId: string,
  gigId: string,
  { issueId, decision }: z.output<typeof issueDecisionSchema>,
): Promise<{ decision: IssueDecision }> {
  const resolved = await resolveIssue(services, clientId, gigId, issueId, decision);
  if (resolved === null || resolved === ESCALATED) throw new AppError("conflict", ISSUE_MESSAGES.withOperators);
  await afterDecision(services, resolved);
  if (resolved.decidedBy === "automatic") throw new AppError("conflict", ISSUE_MESSAGES.deadlinePassed);
  return { decision };
}

/** The issues dialog's Approve or Reject: says which, in the spec's words. */
export const decideGigIssue = defineOperation({
  access: GIG_ISSUES_ACCESS,
  input: issueDecisionSchema,
  async run({ services, user, params, input }) {
    const { decision } = await decideIssue(services, user.id, params.gigId ?? "", input);
    return { success: decision === "approve" ? ISSUE_MESSAGES.approved : ISSUE_MESSAGES.rejected };
  },
});
