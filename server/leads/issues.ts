/**
 * The issues dialog of /my-gigs (spec sections 2, 4, 8; design.md sections 1, 5, 6): the
 * owner of a gig reads the issues diggers reported on its leads and approves or rejects
 * each one. Approving refunds amount_paid x refund_percentage / 100 exactly once: the issue
 * is locked and checked in the transaction that records the refund, and refunds_issue_key
 * allows one refund per issue. Anyone but the gig's owner gets 404 and nothing else.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { formatPrice } from "#core/money.ts";
import { ISSUE_MESSAGES, issueTypeLabel, refundCents, type GigIssue } from "#core/lead-issues.ts";
import { isUuid } from "#core/ids.ts";
import { requireUser } from "../auth/guards.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, users } from "../db/schema.ts";
import { recordRefund, sendRefund } from "./refunds.ts";

const OWNER_ACCESS = {
  signedOut: { message: "Please sign in to view your gigs", redirectTo: "/auth?redirect=/my-gigs" },
} as const;

/** At most this many issues in the dialog: one per purchase, so one per digger who bought. */
const ISSUES_LIMIT = 500;

/** The issues on a gig of `consumerId`, newest first; null when the gig is not theirs. */
export async function listGigIssues(db: Database, consumerId: string, gigId: string): Promise<GigIssue[] | null> {
  if (!isUuid(gigId)) return null;
  const [gig] = await db
    .select({ id: gigs.id })
    .from(gigs)
    .where(and(eq(gigs.id, gigId), eq(gigs.consumerId, consumerId)));
  if (!gig) return null;
  const rows = await db
    .select({
      id: leadIssues.id,
      issueType: leadIssues.issueType,
      description: leadIssues.description,
      refundPercentage: leadIssues.refundPercentage,
      status: leadIssues.status,
      createdAt: leadIssues.createdAt,
      amountPaidCents: leadPurchases.amountPaidCents,
      diggerBusinessName: diggerProfiles.businessName,
    })
    .from(leadIssues)
    .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadIssues.diggerId))
    .where(eq(leadPurchases.gigId, gig.id))
    .orderBy(desc(leadIssues.createdAt), desc(leadIssues.id))
    .limit(ISSUES_LIMIT);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

const notFound = () => data({ error: ISSUE_MESSAGES.loadIssuesFailed }, { status: 404 });

/** The loader of /my-gigs/{gigId}/issues. */
export async function loadGigIssues(context: AppLoadContext, request: Request, gigId: string) {
  const user = await requireUser(context, request, OWNER_ACCESS);
  try {
    const issues = await listGigIssues(context.services.db, user.id, gigId);
    if (!issues) return notFound();
    return data({ issues, now: new Date().toISOString() });
  } catch (error) {
    context.logger.error({ err: error, gigId }, "loading lead issues failed");
    return data({ error: ISSUE_MESSAGES.loadIssuesFailed }, { status: 500 });
  }
}

export type Decision = "approve" | "reject";

/** What the digger is told of a decision. */
interface Resolved {
  kind: "resolved";
  decision: Decision;
  refundId: string | null;
  refundCents: number;
  refundPercentage: number;
  issueType: string;
  gigTitle: string;
  digger: { userId: string; email: string };
}

export type ResolveOutcome =
  | Resolved
  | { kind: "not-found" }
  | { kind: "already-resolved" };

/**
 * Approves or rejects a pending issue on a gig of `consumerId`, in one transaction: the
 * issue row is locked (FOR UPDATE), so of two concurrent decisions the second sees the
 * first's result and changes nothing. Approving records the refund in the same transaction.
 * An issue on a purchase that is not completed (never paid) is not found: nothing to refund.
 */
export async function resolveIssue(
  db: Database,
  consumerId: string,
  gigId: string,
  issueId: string,
  decision: Decision,
): Promise<ResolveOutcome> {
  if (!isUuid(gigId) || !isUuid(issueId)) return { kind: "not-found" };
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
    if (!issue) return { kind: "not-found" };
    if (issue.status !== "pending") return { kind: "already-resolved" };
    await tx
      .update(leadIssues)
      .set({ status: decision === "approve" ? "approved" : "rejected", resolvedAt: sql`now()` })
      .where(eq(leadIssues.id, issueId));
    const { issueType, refundPercentage, gigTitle, digger } = issue;
    const told = { kind: "resolved", decision, issueType, refundPercentage, gigTitle, digger } as const;
    if (decision === "reject") return { ...told, refundId: null, refundCents: 0 };
    const amountCents = refundCents(issue.amountPaidCents, refundPercentage);
    const refundId =
      amountCents > 0
        ? await recordRefund(tx, { leadPurchaseId: issue.leadPurchaseId, leadIssueId: issueId, reason: "issue_approved", amountCents })
        : null;
    return { ...told, refundId, refundCents: amountCents };
  });
}

/** The action of /my-gigs/{gigId}/issues: approve or reject one issue, then refund and e-mail. */
export async function resolveIssueAction(context: AppLoadContext, request: Request, gigId: string) {
  const user = await requireUser(context, request, OWNER_ACCESS);
  const { db, logger } = context.services;
  const form = await request.formData();
  const decision = form.get("decision");
  const issueId = form.get("issueId");
  if ((decision !== "approve" && decision !== "reject") || typeof issueId !== "string") {
    return data({ error: ISSUE_MESSAGES.updateFailed }, { status: 400 });
  }
  let outcome: ResolveOutcome;
  try {
    outcome = await resolveIssue(db, user.id, gigId, issueId, decision);
  } catch (error) {
    logger.error({ err: error, issueId }, "resolving a lead issue failed");
    return data({ error: ISSUE_MESSAGES.updateFailed }, { status: 500 });
  }
  if (outcome.kind === "not-found") return data({ error: ISSUE_MESSAGES.updateFailed }, { status: 404 });
  if (outcome.kind === "already-resolved") return data({ error: ISSUE_MESSAGES.alreadyResolved }, { status: 409 });

  // After the commit: the provider is asked with the refund's id as idempotency key; a
  // failure leaves the refund pending for sendPendingRefunds.
  if (outcome.refundId) await sendRefund(context.services, outcome.refundId);
  await emailDigger(context, outcome).catch((error: unknown) => {
    logger.error({ err: error, issueId }, "e-mailing the digger the outcome of an issue failed");
  });
  return data({ success: decision === "approve" ? ISSUE_MESSAGES.approved : ISSUE_MESSAGES.rejected });
}

async function emailDigger(context: AppLoadContext, outcome: Resolved) {
  const { mailer, config } = context.services;
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
