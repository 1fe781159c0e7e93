/**
 * A refund by the reply guarantee (issue 48), recorded through the one refund path
 * (refunds.ts: a pending refund in the deciding transaction, sent after the commit by its job,
 * keyed by its id). Whoever decides it (the guarantee's check, or an operator for a purchase past
 * its digger's bound) calls `recordGuaranteeRefund` with the purchase row locked.
 *
 * Bounds: one such refund per purchase (refunds_reply_guarantee_key), never more than the part of
 * the purchase not yet refunded, and GUARANTEE_REFUNDS_PER_DIGGER per digger in
 * GUARANTEE_WINDOW_DAYS, counted with the issues approved at once by the guarantee's rule
 * (`guaranteeRefundsInWindow`).
 */
import { and, count, eq, gt, sql } from "drizzle-orm";
import { GUARANTEE_WINDOW_DAYS } from "#core/reply-guarantee.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, refunds } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { recordRefund } from "./refunds.ts";

/** What is left to refund of purchase `purchaseId` (its price less every refund recorded on it). */
export async function refundableCents(tx: Transaction, purchaseId: string): Promise<number> {
  // A join, not a correlated subquery: with one table in its FROM, drizzle writes columns
  // unqualified, and the subquery's "id" would be the refund's own.
  const [row] = await tx
    .select({ left: sql<number>`(${leadPurchases.amountPaidCents} - coalesce(sum(${refunds.amountCents}), 0))::int` })
    .from(leadPurchases)
    .leftJoin(refunds, eq(refunds.leadPurchaseId, leadPurchases.id))
    .where(eq(leadPurchases.id, purchaseId))
    .groupBy(leadPurchases.id);
  return Math.max(0, Number(row?.left ?? 0));
}

/**
 * The digger's refunds by the guarantee in the last GUARANTEE_WINDOW_DAYS: its own refunds and
 * the issues approved at once by its rule. Lock the digger's profile row first (FOR NO KEY UPDATE,
 * `lockDigger`) so that two of one digger's purchases settled at once are counted in turn.
 */
export async function guaranteeRefundsInWindow(tx: Transaction, diggerId: string): Promise<number> {
  const since = sql`now() - make_interval(days => ${GUARANTEE_WINDOW_DAYS}::int)`;
  // The digger's own purchases (lead_purchases_digger_idx), each refunded by the guarantee with its
  // outcome in the same transaction: not every digger's guarantee refunds, read and filtered.
  const [byGuarantee] = await tx
    .select({ n: count() })
    .from(leadPurchases)
    .where(and(eq(leadPurchases.diggerId, diggerId), eq(leadPurchases.guaranteeOutcome, "refunded"), gt(leadPurchases.guaranteeSettledAt, since)));
  const [byIssue] = await tx
    .select({ n: count() })
    .from(leadIssues)
    .where(and(eq(leadIssues.diggerId, diggerId), eq(leadIssues.decidedBy, "guarantee"), gt(leadIssues.resolvedAt, since)));
  return Number(byGuarantee?.n ?? 0) + Number(byIssue?.n ?? 0);
}

/** Locks digger `diggerId`'s profile row, as the figures' trigger does, so that their bound is counted in turn. */
export async function lockDigger(tx: Transaction, diggerId: string): Promise<void> {
  await tx.select({ id: diggerProfiles.id }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)).for("no key update");
}

/**
 * Refunds what is left of purchase `purchaseId` by the guarantee, in `tx`, with the purchase row
 * already locked by the caller: the refund (sent after the commit by "refund.recorded"'s job),
 * the outcome 'refunded', and the digger's notice ("guarantee.refunded": bell and e-mail).
 * Returns the refund's id, or null when nothing is left to refund (the outcome is then 'skipped').
 */
export async function recordGuaranteeRefund(tx: Transaction, emit: Emit, purchaseId: string): Promise<string | null> {
  const amountCents = await refundableCents(tx, purchaseId);
  if (amountCents === 0) {
    await tx.update(leadPurchases).set({ guaranteeOutcome: "skipped", guaranteeSettledAt: sql`now()` }).where(eq(leadPurchases.id, purchaseId));
    return null;
  }
  const refundId = await recordRefund(tx, emit, { leadPurchaseId: purchaseId, leadIssueId: null, reason: "reply_guarantee", amountCents });
  await tx.update(leadPurchases).set({ guaranteeOutcome: "refunded", guaranteeSettledAt: sql`now()` }).where(eq(leadPurchases.id, purchaseId));
  const [who] = await tx
    .select({ diggerUserId: diggerProfiles.userId, gigTitle: gigs.title })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .where(eq(leadPurchases.id, purchaseId));
  await emit(tx, { kind: "guarantee.refunded", purchaseId, refundId, amountCents, diggerUserId: who!.diggerUserId, gigTitle: who!.gigTitle });
  return refundId;
}
