/** The console's Payments section (issue 22): Retry a refund not yet confirmed by the provider. */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { diggerProfiles, gigs, leadPurchases, refunds } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withPurchaseParties } from "../leads/purchase-parties.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

const REFUND_RETRY_QUEUED = "Refund queued for another try.";

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
