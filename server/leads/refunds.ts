/**
 * Refunds happen in two steps so that money moves exactly once:
 * 1. `recordRefund` writes a pending refund inside the transaction that decides it (approving
 *    an issue, finding a duplicate payment, or a payment for a lead no longer available); the
 *    unique index allows one per issue.
 * 2. `sendRefund`, after that commit, asks the payment provider, keyed by the refund's id:
 *    repeating it (a retry, a crash, two workers) never refunds twice.
 * Refunds the provider did not confirm stay pending and are retried by `sendPendingRefunds`.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { leadPurchases, refunds } from "../db/schema.ts";
import type { AppServices } from "../services.ts";

export type RefundReason = "issue_approved" | "duplicate_payment" | "lead_unavailable";

export async function recordRefund(
  tx: Transaction,
  refund: { leadPurchaseId: string; leadIssueId: string | null; reason: RefundReason; amountCents: number },
): Promise<string> {
  const [row] = await tx.insert(refunds).values(refund).returning({ id: refunds.id });
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

/** Retries pending refunds every `intervalMs`; returns a stop function that waits for a running pass. */
export function startRefundRetryWorker(services: Pick<AppServices, "db" | "payments" | "logger">, intervalMs = 60_000) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => sendPendingRefunds(services)).catch((error: unknown) => services.logger.error({ err: error }, "refund retry pass failed"));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** Retries refunds still pending, oldest first; returns how many went through. */
export async function sendPendingRefunds(services: Pick<AppServices, "db" | "payments" | "logger">, limit = 20): Promise<number> {
  const pending = await services.db
    .select({ id: refunds.id })
    .from(refunds)
    .where(eq(refunds.status, "pending"))
    .orderBy(asc(refunds.createdAt))
    .limit(limit);
  let sent = 0;
  for (const { id } of pending) if (await sendRefund(services, id)) sent += 1;
  return sent;
}
