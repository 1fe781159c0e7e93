/**
 * Refunds happen in two steps so that money moves exactly once:
 * 1. `recordRefund` writes a pending refund inside the transaction that decides it (approving
 *    an issue, finding a duplicate payment, or a payment for a lead no longer available); the
 *    unique index allows one per issue.
 *    The same transaction emits "refund.recorded", whose `refund.send` job starts a minute later.
 * 2. `sendRefund`, after that commit, asks the payment provider, keyed by the refund's id:
 *    repeating it (a retry, a crash, two workers) never refunds twice. The request tries at
 *    once, so the refund usually shows as done; the job finds it done, or tries again with
 *    backoff until the provider confirms (or keeps it failed for an operator).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import type { Emit } from "../events/emit.ts";
import { leadPurchases, refunds } from "../db/schema.ts";
import type { AppServices } from "../context.ts";

export type RefundReason = "issue_approved" | "duplicate_payment" | "lead_unavailable" | "reply_guarantee" | "gig_removed";

export async function recordRefund(
  tx: Transaction,
  emit: Emit,
  refund: { leadPurchaseId: string; leadIssueId: string | null; reason: RefundReason; amountCents: number },
): Promise<string> {
  const [row] = await tx.insert(refunds).values(refund).returning({ id: refunds.id });
  await emit(tx, { kind: "refund.recorded", refundId: row!.id });
  return row!.id;
}

/** Sends one pending refund to the provider; true when it is (now or already) refunded. */
export async function sendRefund(services: Pick<AppServices, "db" | "payments" | "logger">, refundId: string): Promise<boolean> {
  const { db, payments, logger } = services;
  const [refund] = await db
    .select({
      id: refunds.id,
      status: refunds.status,
      amountCents: refunds.amountCents,
      paymentId: leadPurchases.providerPaymentId,
    })
    .from(refunds)
    .innerJoin(leadPurchases, eq(leadPurchases.id, refunds.leadPurchaseId))
    .where(eq(refunds.id, refundId));
  if (!refund) return false;
  if (refund.status === "succeeded") return true;
  try {
    const { refundId: providerRefundId } = await payments.refund({
      paymentId: refund.paymentId,
      amountCents: refund.amountCents,
      idempotencyKey: `refund-${refund.id}`,
    });
    await db
      .update(refunds)
      .set({ status: "succeeded", providerRefundId, completedAt: new Date(), attempts: sql`${refunds.attempts} + 1` })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")));
    return true;
  } catch (error) {
    logger.error({ err: error, refundId }, "refund failed; it stays pending and will be retried");
    await db
      .update(refunds)
      .set({ attempts: sql`${refunds.attempts} + 1`, lastError: String(error instanceof Error ? error.message : error).slice(0, 1000) })
      .where(eq(refunds.id, refund.id));
    return false;
  }
}

/** The `refund.send` job: throws while the provider has not confirmed, so the queue retries. */
export async function sendRefundJob(services: Pick<AppServices, "db" | "payments" | "logger">, refundId: string): Promise<void> {
  if (!(await sendRefund(services, refundId))) throw new Error(`refund ${refundId} is not confirmed yet`);
}
