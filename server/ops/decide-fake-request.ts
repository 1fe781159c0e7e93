/**
 * The console's Payments section (issue 48): Approve / Reject on a Fake or Spam Request report,
 * which the client it accuses is never asked about. Approving, in one transaction: the issue
 * approved (its refund: what is left of the reporter's purchase), every other buyer of the gig
 * refunded what is left of theirs ('gig_removed', each told), the gig taken down as an
 * operator's take-down does (moderate-gig.ts: its audit row and the client's neutral notice),
 * and the approval's audit row. Rejecting: the issue rejected, the digger told, the audit row.
 * The refunds go to the provider after the commit.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { ISSUE_DECISIONS, ISSUE_MESSAGES } from "#core/lead-issues.ts";
import { FAKE_REQUEST_TAKEDOWN_REASON, FAKE_REQUEST_TEXTS } from "#core/reply-guarantee.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Emit } from "../events/emit.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { refundableCents } from "../leads/guarantee-refund.ts";
import { recordRefund, sendRefund } from "../leads/refunds.ts";
import { afterDecision, decideLocked, FAKE_REQUEST, lockIssue } from "../leads/resolve-issue.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { hideGig } from "./moderate-gig.ts";

const fakeDecisionSchema = z.object({
  issueId: z.uuid({ error: ISSUE_MESSAGES.issueNotFound }),
  decision: z.enum(ISSUE_DECISIONS, { error: ISSUE_MESSAGES.updateFailed }),
});

/** The gig's other completed purchases, locked (FOR NO KEY UPDATE), with their diggers' accounts. */
async function otherBuyers(tx: Transaction, gigId: string, reportedPurchaseId: string) {
  return tx
    .select({ purchaseId: leadPurchases.id, diggerUserId: diggerProfiles.userId })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(and(eq(leadPurchases.gigId, gigId), eq(leadPurchases.status, "completed"), ne(leadPurchases.id, reportedPurchaseId)))
    .orderBy(asc(leadPurchases.id))
    .for("no key update", { of: leadPurchases });
}

/** Refunds each buyer what is left of their purchase ('gig_removed'), each told; returns the refunds' ids. */
async function refundBuyers(tx: Transaction, emit: Emit, buyers: Array<{ purchaseId: string; diggerUserId: string }>, gigTitle: string): Promise<string[]> {
  const refundIds: string[] = [];
  for (const buyer of buyers) {
    const amountCents = await refundableCents(tx, buyer.purchaseId);
    if (amountCents === 0) continue;
    const refundId = await recordRefund(tx, emit, { leadPurchaseId: buyer.purchaseId, leadIssueId: null, reason: "gig_removed", amountCents });
    await emit(tx, { kind: "gig.removed-refund", purchaseId: buyer.purchaseId, refundId, amountCents, diggerUserId: buyer.diggerUserId, gigTitle });
    refundIds.push(refundId);
  }
  return refundIds;
}

export const decideFakeRequest = defineOperation({
  access: operator,
  input: fakeDecisionSchema,
  async run({ services, user: operator, input: { issueId, decision } }): Promise<{ success: string }> {
    const { resolved, refundIds } = await services.db.transaction(async (tx) => {
      // The issue first, then its gig, then the gig's purchases: one order for every decision.
      const issue = await lockIssue(tx, issueId, eq(leadIssues.issueType, FAKE_REQUEST));
      if (!issue) throw new AppError("not_found", ISSUE_MESSAGES.issueNotFound);
      const [gig] = await tx
        .select({ id: gigs.id, title: gigs.title, ownerId: gigs.clientId, hiddenAt: gigs.hiddenAt })
        .from(gigs)
        .where(eq(gigs.id, issue.gigId))
        .for("no key update");
      const buyers = await otherBuyers(tx, issue.gigId, issue.leadPurchaseId);
      // Before anything is written: never on a report, a gig or a refund about the operator themself.
      refuseOwnRecord(operator.id, issue.digger.userId, issue.client.userId, ...buyers.map((buyer) => buyer.diggerUserId));
      if (issue.status !== "pending") throw new AppError("conflict", ISSUE_MESSAGES.alreadyResolved);
      const decided = await decideLocked(tx, services, issueId, issue, decision, "operator");
      const refunded = decision === "approve" ? await refundBuyers(tx, services.emit, buyers, gig!.title) : [];
      if (decision === "approve" && !gig!.hiddenAt) await hideGig(tx, services.emit, operator.id, gig!, FAKE_REQUEST_TAKEDOWN_REASON);
      await services.emit(tx, {
        kind: "fake-request.decided",
        operatorId: operator.id,
        issueId,
        decision,
        diggerUserId: issue.digger.userId,
        clientUserId: issue.client.userId,
        gigId: issue.gigId,
        refunded: refunded.length,
      });
      return { resolved: decided, refundIds: refunded };
    });
    await afterDecision(services, resolved);
    for (const refundId of refundIds) await sendRefund(services, refundId);
    return { success: decision === "approve" ? FAKE_REQUEST_TEXTS.approved : FAKE_REQUEST_TEXTS.rejected };
  },
});
