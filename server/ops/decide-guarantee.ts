/**
 * The console's Payments section (issue 48): Approve / Reject on a reply guarantee refund past
 * its digger's bound (lead_purchases.guarantee_outcome 'escalated', set by the guarantee's
 * check). Under the purchase's row lock and only while it is still 'escalated' (else 409):
 * approving records the guarantee's refund (`recordGuaranteeRefund`: the refund, the outcome,
 * the digger's notice) and sends it after the commit; rejecting declines it (outcome 'declined',
 * the digger told). Both write the operator's audit row in the decision's transaction.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { ISSUE_DECISIONS, ISSUE_MESSAGES } from "#core/lead-issues.ts";
import { GUARANTEE_TEXTS } from "#core/reply-guarantee.ts";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { recordGuaranteeRefund, refundableCents } from "../leads/guarantee-refund.ts";
import { sendRefund } from "../leads/refunds.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

const guaranteeDecisionSchema = z.object({
  purchaseId: z.uuid({ error: GUARANTEE_TEXTS.notFound }),
  decision: z.enum(ISSUE_DECISIONS, { error: ISSUE_MESSAGES.updateFailed }),
});

export const decideGuarantee = defineOperation({
  access: operator,
  input: guaranteeDecisionSchema,
  async run({ services, user: operator, input: { purchaseId, decision } }): Promise<{ success: string }> {
    const refundId = await services.db.transaction(async (tx) => {
      const [purchase] = await tx
        .select({ outcome: leadPurchases.guaranteeOutcome, diggerUserId: diggerProfiles.userId, clientUserId: gigs.clientId, gigTitle: gigs.title })
        .from(leadPurchases)
        .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
        .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
        .where(and(eq(leadPurchases.id, purchaseId), eq(leadPurchases.status, "completed")))
        .for("update", { of: leadPurchases });
      // Never in the operators' queue: nothing to decide.
      if (!purchase || purchase.outcome === null) throw new AppError("not_found", GUARANTEE_TEXTS.notFound);
      // Their own purchase, or a purchase of their own gig.
      refuseOwnRecord(operator.id, purchase.diggerUserId, purchase.clientUserId);
      if (purchase.outcome !== "escalated") throw new AppError("conflict", GUARANTEE_TEXTS.alreadyDecided);
      const parties = { operatorId: operator.id, purchaseId, diggerUserId: purchase.diggerUserId, clientUserId: purchase.clientUserId };
      if (decision === "reject") {
        await tx.update(leadPurchases).set({ guaranteeOutcome: "declined", guaranteeSettledAt: sql`now()` }).where(eq(leadPurchases.id, purchaseId));
        await services.emit(tx, { kind: "guarantee.declined", ...parties, gigTitle: purchase.gigTitle });
        return null;
      }
      const refundCents = await refundableCents(tx, purchaseId);
      const recorded = await recordGuaranteeRefund(tx, services.emit, purchaseId);
      await services.emit(tx, { kind: "guarantee.approved-by-operator", ...parties, refundCents });
      return recorded;
    });
    if (refundId) await sendRefund(services, refundId);
    return { success: decision === "approve" ? GUARANTEE_TEXTS.approved : GUARANTEE_TEXTS.declinedToast };
  },
});
