/**
 * Completing a paid checkout, from Stripe's verified webhook or the test checkout's Pay
 * button. Idempotent: an event that arrives twice, late, or at the same time as another
 * completes the purchase once, and raises the gig's purchase count once, in one transaction.
 * A second payment for a lead the digger already holds is refunded in full, and so is a
 * payment for a lead that is gone (the gig closed, its client hired a digger (issue 47), an
 * operator hid it, or its client deleted their account or was suspended, while the checkout was open) or full (its hold ran out and other diggers took every spot, decision
 * 0019): the digger is told and never sees the client. A payment for a lead paused by the reply
 * guarantee (issue 48) while its checkout was open completes as usual when a spot is left for it:
 * the hold was taken while the lead was for sale, and the digger gets what they paid for (the
 * pause is only a stop to new sales; `whyNotForSale` says 'paused' only once the spots are
 * counted).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import type { AppServices } from "../context.ts";
import { whyNotForSale } from "./for-sale.ts";
import { clientUser, diggerUser, withPurchaseParties } from "./purchase-parties.ts";
import { recordRefund, sendRefund } from "./refunds.ts";

export type CompletionOutcome =
  | "completed"
  | "already_completed"
  | "duplicate_refunded"
  | "unavailable_refunded"
  | "full_refunded"
  | "unknown_session";

/** Why a paid checkout cannot complete: its gig is gone, or every spot is taken by others. */
type Unavailable = "gone" | "full";

type Services = Pick<AppServices, "db" | "jobs" | "payments" | "logger" | "emit" | "config">;

export async function completeCheckout(services: Services, sessionId: string, paymentId: string | null): Promise<CompletionOutcome> {
  const { db, logger } = services;
  let decided: { purchaseId: string; unavailable: { why: Unavailable; refundId: string } | null } | null;
  try {
    decided = await db.transaction(async (tx) => {
      // Only a pending purchase completes: a replay, or a duplicate already refunded, does not.
      const [purchase] = await tx
        .select({ id: leadPurchases.id, gigId: leadPurchases.gigId, amountPaidCents: leadPurchases.amountPaidCents })
        .from(leadPurchases)
        .where(and(eq(leadPurchases.providerSessionId, sessionId), eq(leadPurchases.status, "pending")))
        .for("update");
      if (!purchase) return null;
      // The lock an update of the gig takes: closing or hiding the gig, or deleting or suspending
      // its client's account (which close it or mark it), waits for this transaction or is seen by it.
      // Starting a checkout locks it too, so the spots counted here stay counted until commit.
      await tx.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, purchase.gigId)).for("no key update");
      // The rule, in the statement after the lock (server/leads/for-sale.ts). This payment's spot:
      // free unless the others' completed purchases and live holds fill the cap. A live hold of its
      // own always leaves one; a hold that ran out (paid in Stripe's margin, or on a page left
      // open) completes only if a spot is still free (decision 0019).
      const why = await whyNotForSale(tx, purchase.gigId, purchase.id);
      // A hire took it off sale: no longer available, refunded in full at once like a closed gig (issue 47).
      // Paused (issue 48): completes, see above.
      const gone = why === "gone" || why === "closed" || why === "hired";
      const full = why === "full" || why === "held";
      const payment = { providerPaymentId: paymentId ?? sql`${leadPurchases.providerPaymentId}` };
      if (gone || full) {
        await tx.update(leadPurchases).set({ status: "cancelled", ...payment }).where(eq(leadPurchases.id, purchase.id));
        const refundId = await recordRefund(tx, services.emit, {
          leadPurchaseId: purchase.id,
          leadIssueId: null,
          reason: "lead_unavailable",
          amountCents: purchase.amountPaidCents,
        });
        const why = gone ? ("gone" as const) : ("full" as const);
        await notifyDiggerUnavailable(services, tx, purchase.id, why);
        return { purchaseId: purchase.id, unavailable: { why, refundId } };
      }
      await tx.update(leadPurchases).set({ status: "completed", purchasedAt: new Date(), ...payment }).where(eq(leadPurchases.id, purchase.id));
      await tx.update(gigs).set({ purchaseCount: sql`${gigs.purchaseCount} + 1` }).where(eq(gigs.id, purchase.gigId));
      await notifyClient(services, tx, purchase.id);
      return { purchaseId: purchase.id, unavailable: null };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return refundDuplicate(services, sessionId, paymentId);
  }

  if (!decided) {
    const [existing] = await db
      .select({ status: leadPurchases.status })
      .from(leadPurchases)
      .where(eq(leadPurchases.providerSessionId, sessionId));
    if (!existing) logger.warn({ sessionId }, "payment for an unknown checkout session");
    return existing ? "already_completed" : "unknown_session";
  }
  if (decided.unavailable) {
    const { why, refundId } = decided.unavailable;
    logger.warn({ sessionId, why }, "payment for a lead no longer available: refunding it");
    await sendRefund(services, refundId);
    return why === "full" ? "full_refunded" : "unavailable_refunded";
  }
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
    return recordRefund(tx, services.emit, {
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

/** The client hears who bought their lead (the bell and an e-mail, with the digger's profile), in the purchase's transaction. */
async function notifyClient(services: Pick<Services, "emit">, tx: Transaction, purchaseId: string) {
  const [row] = await withPurchaseParties(
    tx
      .select({ title: gigs.title, name: clientUser.name, clientId: clientUser.id, amount: leadPurchases.amountPaidCents, diggerId: diggerProfiles.id, handle: diggerProfiles.handle })
      .from(leadPurchases)
      .$dynamic(),
  ).where(eq(leadPurchases.id, purchaseId));
  if (!row) return;
  await services.emit(tx, {
    kind: "lead.bought",
    purchaseId,
    clientUserId: row.clientId,
    clientName: row.name,
    handle: row.handle,
    gigTitle: row.title,
    amountCents: row.amount,
    diggerId: row.diggerId,
  });
}

async function notifyDiggerUnavailable(services: Pick<Services, "emit">, tx: Transaction, purchaseId: string, why: Unavailable) {
  const [row] = await withPurchaseParties(
    tx.select({ title: gigs.title, name: diggerUser.name, diggerUserId: diggerUser.id, amount: leadPurchases.amountPaidCents }).from(leadPurchases).$dynamic(),
  ).where(eq(leadPurchases.id, purchaseId));
  if (!row) return;
  await services.emit(tx, { kind: "lead.unavailable", purchaseId, diggerUserId: row.diggerUserId, diggerName: row.name, gigTitle: row.title, amountCents: row.amount, why });
}
