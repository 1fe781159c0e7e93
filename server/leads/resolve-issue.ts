/**
 * The issues dialog of /my-gigs, deciding (spec sections 2, 4, 8; design.md sections 1, 5, 6):
 * the owner of a gig approves or rejects an issue a digger reported on its lead. Approving
 * refunds amount_paid x refund_percentage / 100 exactly once: the issue is locked and checked
 * in the transaction that records the refund, and refunds_issue_key allows one refund per
 * issue. Anyone but the gig's owner gets 404 and nothing else.
 *
 * The automatic approval of an issue whose client did not answer by its `respond_by`
 * (auto-approve.ts) takes the same decision through `decideLocked` and `afterDecision`: one
 * code path records and sends a refund, whoever decides.
 */
import { and, eq, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { isUuid } from "#core/ids.ts";
import { ISSUE_MESSAGES, issueDecisionSchema, issueTypeLabel, refundCents, type IssueDecider, type IssueDecision } from "#core/lead-issues.ts";
import { formatDateTime } from "#core/dates.ts";
import { formatPrice } from "#core/money.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, users } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import { issueAutoApprovedEmail, issueDecidedEmail } from "../mail/templates/lead-emails.ts";
import type { AppServices } from "../services.ts";
import { recordRefund, sendRefund } from "./refunds.ts";

/** A decision taken, with what both sides are told of it. */
export interface Resolved {
  issueId: string;
  decision: IssueDecision;
  decidedBy: IssueDecider;
  refundId: string | null;
  refundCents: number;
  refundPercentage: number;
  issueType: string;
  gigTitle: string;
  respondBy: Date;
  digger: { userId: string; email: string };
  client: { userId: string; email: string };
}

const clients = alias(users, "clients");

/**
 * Locks one issue on a completed purchase (only a completed purchase was paid for: an issue
 * on any other is never refunded) that also matches `where`, and reads what the decision
 * needs. `skipLocked`: an issue another transaction is deciding right now is passed over.
 */
async function lockIssue(tx: Transaction, issueId: string, where: SQL | undefined, { skipLocked = false } = {}) {
  const [issue] = await tx
    .select({
      status: leadIssues.status,
      issueType: leadIssues.issueType,
      refundPercentage: leadIssues.refundPercentage,
      respondBy: leadIssues.respondBy,
      overdue: sql<boolean>`${leadIssues.respondBy} <= now()`,
      leadPurchaseId: leadPurchases.id,
      amountPaidCents: leadPurchases.amountPaidCents,
      gigTitle: gigs.title,
      digger: { userId: users.id, email: users.email },
      client: { userId: clients.id, email: clients.email },
    })
    .from(leadIssues)
    .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(clients, eq(clients.id, gigs.consumerId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadIssues.diggerId))
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(eq(leadIssues.id, issueId), eq(leadPurchases.status, "completed"), where))
    .for("update", skipLocked ? { of: leadIssues, skipLocked: true } : { of: leadIssues });
  return issue;
}
type LockedIssue = NonNullable<Awaited<ReturnType<typeof lockIssue>>>;

/**
 * The one decision, on an issue locked (FOR UPDATE) and still pending in transaction `tx`:
 * sets the status, resolved_at and who decided, and approving records the refund in the same
 * transaction (refunds_issue_key allows one per issue).
 */
async function decideLocked(
  tx: Transaction,
  services: Tellers,
  issueId: string,
  issue: LockedIssue,
  decision: IssueDecision,
  decidedBy: IssueDecider,
): Promise<Resolved> {
  await tx
    .update(leadIssues)
    .set({ status: decision === "approve" ? "approved" : "rejected", resolvedAt: sql`now()`, decidedBy })
    .where(and(eq(leadIssues.id, issueId), eq(leadIssues.status, "pending")));
  const { issueType, refundPercentage, gigTitle, respondBy, digger, client } = issue;
  const told = { issueId, decision, decidedBy, issueType, refundPercentage, gigTitle, respondBy, digger, client };
  const amountCents = decision === "reject" ? 0 : refundCents(issue.amountPaidCents, refundPercentage);
  const refundId =
    amountCents > 0
      ? await recordRefund(tx, services.jobs, { leadPurchaseId: issue.leadPurchaseId, leadIssueId: issueId, reason: "issue_approved", amountCents })
      : null;
  const resolved = { ...told, refundId, refundCents: amountCents };
  // Both sides hear of it with the decision itself: the digger always, the client of an automatic approval.
  await notifyDigger(tx, services, resolved);
  if (decidedBy === "automatic") await notifyClient(tx, services, resolved);
  return resolved;
}

/** What deciding needs to record the refund's job and tell both sides. */
type Tellers = Pick<AppServices, "jobs" | "notify" | "config">;

/**
 * Approves or rejects a pending issue on a gig of `consumerId`, in one transaction: the
 * issue row is locked (FOR UPDATE), so of two concurrent decisions (the client's, or the
 * client's and the automatic approval) the second sees the first's result and changes
 * nothing ('This issue has already been resolved'). Past the issue's `respond_by` the
 * issue is approved automatically instead (decidedBy 'automatic'). An issue on a purchase
 * that is not completed (never paid) is not found: nothing to refund.
 */
export async function resolveIssue(
  services: Tellers & Pick<AppServices, "db">,
  consumerId: string,
  gigId: string,
  issueId: string,
  decision: IssueDecision,
): Promise<Resolved> {
  const notFound = new AppError("not_found", ISSUE_MESSAGES.updateFailed);
  if (!isUuid(gigId) || !isUuid(issueId)) throw notFound;
  return services.db.transaction(async (tx) => {
    const issue = await lockIssue(tx, issueId, and(eq(gigs.id, gigId), eq(gigs.consumerId, consumerId)));
    if (!issue) throw notFound;
    if (issue.status !== "pending") throw new AppError("conflict", ISSUE_MESSAGES.alreadyResolved);
    // The deadline is binding: past it, the decision is the automatic approval's, taken now
    // rather than at the job's next run, so the outcome never depends on the job's timing.
    if (issue.overdue) return decideLocked(tx, services, issueId, issue, "approve", "automatic");
    return decideLocked(tx, services, issueId, issue, decision, "client");
  });
}

/**
 * Approves issue `issueId` automatically if it is still pending and its `respond_by` has
 * passed, in one transaction; null when it is not (decided meanwhile, not yet due, or being
 * decided by another transaction right now: SKIP LOCKED passes it over, and that one wins).
 */
export async function autoApproveIssue(services: Tellers & Pick<AppServices, "db">, issueId: string): Promise<Resolved | null> {
  return services.db.transaction(async (tx) => {
    const issue = await lockIssue(tx, issueId, and(eq(leadIssues.status, "pending"), lte(leadIssues.respondBy, sql`now()`)), { skipLocked: true });
    if (!issue) return null;
    return decideLocked(tx, services, issueId, issue, "approve", "automatic");
  });
}

type AfterServices = Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "notify" | "config">;

/**
 * After the decision's commit (which told both sides): the refund goes to the provider with
 * its id as idempotency key (a failure leaves it pending for its `refund.send` job).
 */
export async function afterDecision(services: AfterServices, resolved: Resolved): Promise<void> {
  if (resolved.refundId) await sendRefund(services, resolved.refundId);
}

/**
 * The owner `consumerId` approves or rejects one issue of gig `gigId` (the dialog's form);
 * then the refund goes to the provider and the digger is e-mailed. Returns the decision.
 */
export async function decideIssue(services: AfterServices, consumerId: string, gigId: string, form: FormData): Promise<{ decision: IssueDecision }> {
  const { issueId, decision } = parsedInput(issueDecisionSchema, { issueId: form.get("issueId"), decision: form.get("decision") });
  const resolved = await resolveIssue(services, consumerId, gigId, issueId, decision).catch((error: unknown) => {
    throw error instanceof AppError ? error : new AppError("failed", ISSUE_MESSAGES.updateFailed, { cause: error });
  });
  await afterDecision(services, resolved);
  if (resolved.decidedBy === "automatic") throw new AppError("conflict", ISSUE_MESSAGES.deadlinePassed);
  return { decision };
}

async function notifyDigger(tx: Transaction, { notify, config }: Tellers, outcome: Omit<Resolved, "refundId">) {
  const approved = outcome.decision === "approve";
  const automatic = outcome.decidedBy === "automatic";
  const report = `your report (${issueTypeLabel(outcome.issueType)}) on the lead "${outcome.gigTitle}"`;
  const refund = `A refund of ${formatPrice(outcome.refundCents)} (${outcome.refundPercentage}%) goes back to your card.`;
  const subject = `Your issue report for "${outcome.gigTitle}" was ${automatic ? "approved automatically" : approved ? "approved" : "rejected"}`;
  await notify(tx, {
    userId: outcome.digger.userId,
    kind: "issue.decided",
    subjectId: outcome.issueId,
    text: approved ? `${subject}: ${formatPrice(outcome.refundCents)} refunded` : `${subject}: no refund`,
    link: "/my-leads",
    email: issueDecidedEmail({
      publicUrl: config.publicUrl,
      subject,
      outcome: automatic
        ? `The client did not respond by ${formatDateTime(outcome.respondBy)}, so ${report} was approved automatically. ${refund}`
        : approved
          ? `The client approved ${report}. ${refund}`
          : `The client rejected ${report}. No refund is made.`,
    }),
  });
}

async function notifyClient(tx: Transaction, { notify, config }: Tellers, outcome: Omit<Resolved, "refundId">) {
  const subject = `An issue on your gig "${outcome.gigTitle}" was approved automatically`;
  await notify(tx, {
    userId: outcome.client.userId,
    kind: "issue.auto-approved",
    subjectId: outcome.issueId,
    text: `${subject}: the digger is refunded, you pay nothing`,
    link: "/my-gigs",
    email: issueAutoApprovedEmail({
      publicUrl: config.publicUrl,
      subject,
      gigTitle: outcome.gigTitle,
      issueType: issueTypeLabel(outcome.issueType),
      respondBy: formatDateTime(outcome.respondBy),
      refund: formatPrice(outcome.refundCents),
      refundPercentage: outcome.refundPercentage,
    }),
  });
}
