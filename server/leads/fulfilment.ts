/**
 * Completing a paid checkout, from Stripe's verified webhook or the test checkout's Pay
 * button. Idempotent: an event that arrives twice, late, or at the same time as another
 * completes the purchase once, and raises the gig's purchase count once, in one transaction.
 * A second payment for a lead the digger already holds is refunded in full.
 */
import { and, eq, sql } from "drizzle-orm";
import { formatPrice } from "#core/money.ts";
import { gigs, leadPurchases, users } from "../db/schema.ts";
import type { AppServices } from "../services.ts";
import { recordRefund, sendRefund } from "./refunds.ts";

export type CompletionOutcome = "completed" | "already_completed" | "duplicate_refunded" | "unknown_session";

type Services = Pick<AppServices, "db" | "payments" | "logger" | "mailer">;

function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  while (e && typeof e === "object") {
    if ("code" in e && e.code === "23505") return true;
    e = "cause" in e ? e.cause : undefined;
  }
  return false;
}

export async function completeCheckout(services: Services, sessionId: string, paymentId: string | null): Promise<CompletionOutcome> {
  const { db, logger } = services;
  let completed: { id: string; gigId: string; amountPaidCents: number } | undefined;
  try {
    completed = await db.transaction(async (tx) => {
      const [purchase] = await tx
        .update(leadPurchases)
        .set({
          status: "completed",
          purchasedAt: new Date(),
          providerPaymentId: paymentId ?? sql`${leadPurchases.providerPaymentId}`,
        })
        // Only a pending purchase completes: a replay, or a duplicate already refunded, does not.
        .where(and(eq(leadPurchases.providerSessionId, sessionId), eq(leadPurchases.status, "pending")))
        .returning({ id: leadPurchases.id, gigId: leadPurchases.gigId, amountPaidCents: leadPurchases.amountPaidCents });
      if (purchase) {
        await tx.update(gigs).set({ purchaseCount: sql`${gigs.purchaseCount} + 1` }).where(eq(gigs.id, purchase.gigId));
      }
      return purchase;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return refundDuplicate(services, sessionId, paymentId);
  }

  if (!completed) {
    const [existing] = await db
      .select({ status: leadPurchases.status })
      .from(leadPurchases)
      .where(eq(leadPurchases.providerSessionId, sessionId));
    if (!existing) logger.warn({ sessionId }, "payment for an unknown checkout session");
    return existing ? "already_completed" : "unknown_session";
  }
  await notifyClient(services, completed.id);
  return "completed";
}

/** The digger already holds this lead: keep one purchase, give this payment back. */
async function refundDuplicate(services: Services, sessionId: string, paymentId: string | null): Promise<CompletionOutcome> {
  const refundId = await services.db.transaction(async (tx) => {
    const [purchase] = await tx
      .update(leadPurchases)
      .set({ status: "cancelled", providerPaymentId: paymentId ?? sql`${leadPurchases.providerPaymentId}` })
      .where(eq(leadPurchases.providerSessionId, sessionId))
      .returning({ id: leadPurchases.id, amountPaidCents: leadPurchases.amountPaidCents });
    if (!purchase) return null;
    return recordRefund(tx, {
      leadPurchaseId: purchase.id,
      leadIssueId: null,
      reason: "duplicate_payment",
      amountCents: purchase.amountPaidCents,
    });
  });
  services.logger.warn({ sessionId }, "second payment for a lead already bought: refunding it");
  if (refundId) await sendRefund(services, refundId);
  return "duplicate_refunded";
}

/** A checkout that ended unpaid (cancelled, expired, failed). */
export async function endCheckout(services: Pick<AppServices, "db">, sessionId: string): Promise<void> {
  await services.db
    .update(leadPurchases)
    .set({ status: "cancelled" })
    .where(and(eq(leadPurchases.providerSessionId, sessionId), eq(leadPurchases.status, "pending")));
}

async function notifyClient(services: Services, purchaseId: string) {
  const [row] = await services.db
    .select({ title: gigs.title, email: users.email, name: users.name, clientId: users.id, amount: leadPurchases.amountPaidCents })
    .from(leadPurchases)
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(users, eq(users.id, gigs.consumerId))
    .where(eq(leadPurchases.id, purchaseId));
  if (!row) return;
  await services.mailer.send({
    to: row.email,
    userId: row.clientId,
    kind: "transactional",
    subject: `A digger bought the lead for "${row.title}"`,
    text: [
      `Hello ${row.name},`,
      "",
      `A digger just bought the lead for your gig "${row.title}" (${formatPrice(row.amount)}), so they can now see your contact details and may get in touch.`,
      "",
      "You can see and manage your gigs on My Gigs.",
    ].join("\n"),
  });
}
