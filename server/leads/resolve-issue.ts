/**
 * The issues dialog of /my-gigs, deciding (spec sections 2, 4, 8; design.md sections 1, 5, 6):
 * the owner of a gig approves or rejects an issue a digger reported on its lead. Approving
 * refunds amount_paid x refund_percentage / 100 exactly once: the issue is locked and checked
 * in the transaction that records the refund, and refunds_issue_key allows one refund per
 * issue. Anyone but the gig's owner gets 404 and nothing else.
 */
import { and, eq, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { ISSUE_MESSAGES, issueDecisionSchema, issueTypeLabel, refundCents, type IssueDecision } from "#core/lead-issues.ts";
import { formatPrice } from "#core/money.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, users } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import type { AppServices } from "../services.ts";
import { recordRefund, sendRefund } from "./refunds.ts";

/** A decision taken, with what the digger is told of it. */
export interface Resolved {
  decision: IssueDecision;
  refundId: string | null;
  refundCents: number;
  refundPercentage: number;
  issueType: string;
  gigTitle: string;
  digger: { userId: string; email: string };
}

/**
 * Approves or rejects a pending issue on a gig of `consumerId`, in one transaction: the
 * issue row is locked (FOR UPDATE), so of two concurrent decisions the second sees the
 * first's result and changes nothing ('This issue has already been resolved'). Approving
 * records the refund in the same transaction. An issue on a purchase that is not completed
 * (never paid) is not found: nothing to refund.
 */
export async function resolveIssue(
  { db, jobs }: Pick<AppServices, "db" | "jobs">,
  consumerId: string,
  gigId: string,
  issueId: string,
  decision: IssueDecision,
): Promise<Resolved> {
  const notFound = new AppError("not_found", ISSUE_MESSAGES.updateFailed);
  if (!isUuid(gigId) || !isUuid(issueId)) throw notFound;
  return db.transaction(async (tx) => {
    const [issue] = await tx
      .select({
        status: leadIssues.status,
        issueType: leadIssues.issueType,
        refundPercentage: leadIssues.refundPercentage,
        leadPurchaseId: leadPurchases.id,
        amountPaidCents: leadPurchases.amountPaidCents,
        gigTitle: gigs.title,
        digger: { userId: users.id, email: users.email },
      })
      .from(leadIssues)
      .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
      .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadIssues.diggerId))
      .innerJoin(users, eq(users.id, diggerProfiles.userId))
      // Only a completed purchase was paid for: an issue on any other is never refunded.
      .where(and(eq(leadIssues.id, issueId), eq(gigs.id, gigId), eq(gigs.consumerId, consumerId), eq(leadPurchases.status, "completed")))
      .for("update", { of: leadIssues });
    if (!issue) throw notFound;
    if (issue.status !== "pending") throw new AppError("conflict", ISSUE_MESSAGES.alreadyResolved);
    await tx
      .update(leadIssues)
      .set({ status: decision === "approve" ? "approved" : "rejected", resolvedAt: sql`now()` })
      .where(eq(leadIssues.id, issueId));
    const { issueType, refundPercentage, gigTitle, digger } = issue;
    const told = { decision, issueType, refundPercentage, gigTitle, digger };
    if (decision === "reject") return { ...told, refundId: null, refundCents: 0 };
    const amountCents = refundCents(issue.amountPaidCents, refundPercentage);
    const refundId =
      amountCents > 0
        ? await recordRefund(tx, jobs, { leadPurchaseId: issue.leadPurchaseId, leadIssueId: issueId, reason: "issue_approved", amountCents })
        : null;
    return { ...told, refundId, refundCents: amountCents };
  });
}

/**
 * The owner `consumerId` approves or rejects one issue of gig `gigId` (the dialog's form);
 * then the refund goes to the provider and the digger is e-mailed. Returns the decision.
 */
export async function decideIssue(
  services: Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "mailer" | "config">,
  consumerId: string,
  gigId: string,
  form: FormData,
): Promise<{ decision: IssueDecision }> {
  const { logger } = services;
  const { issueId, decision } = parsedInput(issueDecisionSchema, { issueId: form.get("issueId"), decision: form.get("decision") });
  const resolved = await resolveIssue(services, consumerId, gigId, issueId, decision).catch((error: unknown) => {
    throw error instanceof AppError ? error : new AppError("failed", ISSUE_MESSAGES.updateFailed, { cause: error });
  });
  // After the commit: the provider is asked with the refund's id as idempotency key; a
  // failure leaves the refund pending for its `refund.send` job.
  if (resolved.refundId) await sendRefund(services, resolved.refundId);
  await emailDigger(services, resolved).catch((error: unknown) => {
    logger.error({ err: error, issueId }, "e-mailing the digger the outcome of an issue failed");
  });
  return { decision };
}

async function emailDigger(services: Pick<AppServices, "mailer" | "config">, outcome: Resolved) {
  const { mailer, config } = services;
  const approved = outcome.decision === "approve";
  const report = `your report (${issueTypeLabel(outcome.issueType)}) on the lead "${outcome.gigTitle}"`;
  await mailer.send({
    to: outcome.digger.email,
    userId: outcome.digger.userId,
    kind: "transactional",
    subject: `Your issue report for "${outcome.gigTitle}" was ${approved ? "approved" : "rejected"}`,
    text: [
      approved
        ? `The client approved ${report}. A refund of ${formatPrice(outcome.refundCents)} (${outcome.refundPercentage}%) goes back to your card.`
        : `The client rejected ${report}. No refund is made.`,
      "",
      `Your leads: ${config.publicUrl}/my-leads`,
    ].join("\n"),
  });
}
