/**
 * The reply guarantee's check (issue 48, docs/decisions/0074-the-reply-guarantee.md): a covered
 * purchase falls due 48 hours after its digger's first answer (lead_purchases.guarantee_due_at,
 * set by migration 0052's trigger); then what its thread shows decides, once:
 * - 'answered': the client opened the thread, wrote in it, decided a quote in it, or somebody is
 *   hired on the gig;
 * - 'skipped': an issue on the purchase is pending or was approved (that path refunds);
 * - 'refunded' (or 'skipped' when nothing is left to refund): within the digger's
 *   GUARANTEE_REFUNDS_PER_DIGGER in GUARANTEE_WINDOW_DAYS, through the one refund path
 *   (guarantee-refund.ts), sent to the provider after the commit;
 * - 'escalated': past that bound: the operators decide (their queue orders by guarantee_settled_at).
 *
 * Run by the `guarantee.check` job its first answer started, and by the `guarantee.sweep`
 * schedule every 5 minutes (the safety net, and how thousands due at once finish in one pass).
 * Safe to run twice and across servers: the purchase row is locked (FOR UPDATE, the sweep skips
 * one locked by another run) and only an unsettled, due purchase is settled.
 *
 * A client's reading or reply that commits first wins: the check locks the thread's row (FOR NO
 * KEY UPDATE) before it reads the evidence, and the thread's page (setting client_opened_at) and
 * a message (migration 0052's trigger) write that row, so either they committed before the lock
 * and the evidence shows them ('answered'), or they wait for the check's commit and come after
 * its refund. Never both.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { GUARANTEE_REFUNDS_PER_DIGGER, type GuaranteeOutcome } from "#core/reply-guarantee.ts";
import { queryRows, type Transaction } from "../db/client.ts";
import { leadPurchases, threads } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import type { AppServices } from "../context.ts";
import { guaranteeRefundsInWindow, lockDigger, recordGuaranteeRefund } from "./guarantee-refund.ts";
import { pauseIfUnreached } from "./pause-gig.ts";
import { sendRefund } from "./refunds.ts";

type Services = Pick<AppServices, "db" | "emit" | "payments" | "logger" | "pageCache">;

/** One purchase's guarantee, settled: how, its gig (the pause of a lead nobody can reach starts from it), and the refund recorded. */
export interface SettledGuarantee {
  purchaseId: string;
  gigId: string;
  outcome: GuaranteeOutcome;
  refundId: string | null;
  /** Its gig was paused now (a lead nobody can reach, pause-gig.ts): the page cache is emptied after the commit. */
  paused: boolean;
}

/** Due and unsettled, on a completed purchase: what the check and the sweep settle. */
const due = and(
  isNotNull(leadPurchases.guaranteeDueAt),
  isNull(leadPurchases.guaranteeOutcome),
  lte(leadPurchases.guaranteeDueAt, sql`now()`),
  eq(leadPurchases.status, "completed"),
);

/**
 * What the purchase's thread and gig show (the row of `lead_purchases` in the statement, named in
 * full): the client opened the thread, wrote in it, decided a quote in it, booked a visit's time
 * or asked for other times (issue 50: a booking posted without opening the page is an answer
 * too), or somebody is hired on the gig.
 */
const answered = sql`(exists (select 1 from threads t where t.purchase_id = "lead_purchases"."id" and (t.client_opened_at is not null or t.client_messages > 0
    or exists (select 1 from quotes q where q.thread_id = t.id and q.status in ('accepted', 'declined'))
    or exists (select 1 from visit_proposals vp where vp.thread_id = t.id and vp.status in ('booked', 'other_times'))))
  or exists (select 1 from hires h where h.gig_id = "lead_purchases"."gig_id")
  or exists (select 1 from gigs g where g.id = "lead_purchases"."gig_id" and g.hired))`;
/** An issue on the purchase is pending, or one was approved (that path refunds). */
const issueOnIt = sql`exists (select 1 from lead_issues i where i.lead_purchase_id = "lead_purchases"."id" and i.status in ('pending', 'approved'))`;

async function settleLocked(tx: Transaction, emit: Emit, purchaseId: string, skipLocked: boolean): Promise<SettledGuarantee | null> {
  const [purchase] = await tx
    .select({ gigId: leadPurchases.gigId, diggerId: leadPurchases.diggerId })
    .from(leadPurchases)
    .where(and(eq(leadPurchases.id, purchaseId), due))
    .for("update", skipLocked ? { skipLocked: true } : {});
  if (!purchase) return null;
  // The thread's row, locked like its writers lock it: what they committed is read below, what they have not waits for this commit.
  await tx.select({ id: threads.id }).from(threads).where(eq(threads.purchaseId, purchaseId)).for("no key update");
  // Unless the client answered, the gig may be a lead nobody can reach: paused in this transaction
  // (lock order: the thread, then the gig, as a client opening a thread takes them).
  const settle = async (outcome: GuaranteeOutcome, refundId: string | null = null): Promise<SettledGuarantee> => {
    if (outcome !== "refunded") {
      await tx.update(leadPurchases).set({ guaranteeOutcome: outcome, guaranteeSettledAt: sql`now()` }).where(eq(leadPurchases.id, purchaseId));
    }
    const paused = outcome === "answered" ? false : await pauseIfUnreached(tx, emit, purchase.gigId);
    return { purchaseId, gigId: purchase.gigId, outcome, refundId, paused };
  };
  // Read in a statement after the lock: in READ COMMITTED it sees every writer that committed before it.
  const [evidence] = await queryRows<{ answered: boolean; issue: boolean }>(
    tx,
    sql`select ${answered} as answered, ${issueOnIt} as issue from ${leadPurchases} where "lead_purchases"."id" = ${purchaseId}`,
  );
  if (evidence?.answered) return settle("answered");
  if (evidence?.issue) return settle("skipped");
  await lockDigger(tx, purchase.diggerId);
  if ((await guaranteeRefundsInWindow(tx, purchase.diggerId)) >= GUARANTEE_REFUNDS_PER_DIGGER) return settle("escalated");
  const refundId = await recordGuaranteeRefund(tx, emit, purchaseId);
  // recordGuaranteeRefund wrote the outcome itself: 'refunded', or 'skipped' when nothing was left.
  return settle(refundId ? "refunded" : "skipped", refundId);
}

/**
 * Settles purchase `purchaseId`'s guarantee when it is due and unsettled (null otherwise, or
 * when `skipLocked` and another run holds it), in one transaction; a refund then goes to the
 * provider at once, keyed by its id (its `refund.send` job retries a failure).
 */
export async function settleGuarantee(services: Services, purchaseId: string, { skipLocked = false } = {}): Promise<SettledGuarantee | null> {
  const settled = await services.db.transaction((tx) => settleLocked(tx, services.emit, purchaseId, skipLocked));
  if (settled?.paused) services.pageCache.invalidate();
  if (settled?.refundId) await sendRefund(services, settled.refundId);
  return settled;
}

/**
 * The purchases of `ids` that are due, not held by another run, and whose evidence shows an
 * answer, settled 'answered' together in one transaction, under the same locks as one check
 * takes (the purchases, then their threads): most due purchases end so, in three statements a
 * round. The others are left to `settleGuarantee`, one by one.
 */
async function settleAnsweredTogether(services: Services, ids: string[]): Promise<SettledGuarantee[]> {
  if (ids.length === 0) return [];
  return services.db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: leadPurchases.id })
      .from(leadPurchases)
      .where(and(inArray(leadPurchases.id, ids), due))
      .for("update", { skipLocked: true });
    if (locked.length === 0) return [];
    const lockedIds = locked.map((row) => row.id);
    await tx.select({ id: threads.id }).from(threads).where(inArray(threads.purchaseId, lockedIds)).orderBy(asc(threads.id)).for("no key update");
    const settled = await tx
      .update(leadPurchases)
      .set({ guaranteeOutcome: "answered", guaranteeSettledAt: sql`now()` })
      .where(and(inArray(leadPurchases.id, lockedIds), answered))
      .returning({ purchaseId: leadPurchases.id, gigId: leadPurchases.gigId });
    return settled.map((row) => ({ ...row, outcome: "answered" as const, refundId: null, paused: false }));
  });
}

/** Due purchases read per round, through lead_purchases_guarantee_due_idx; rounds go on while a full one made progress. */
const BATCH = 500;
/** Purchases of a round settled side by side, each in its own transaction (a share of the pool). */
const SIDE_BY_SIDE = 4;

/**
 * The `guarantee.sweep` job: settles every due purchase, oldest due first, in rounds of BATCH;
 * a purchase another run holds is passed over (it is being settled). `onSettled` runs after each
 * one's commit. Returns how
 * many were settled, by outcome.
 */
export async function sweepDueGuarantees(
  services: Services,
  onSettled?: (settled: SettledGuarantee) => Promise<void>,
): Promise<Partial<Record<GuaranteeOutcome, number>>> {
  const counts: Partial<Record<GuaranteeOutcome, number>> = {};
  for (;;) {
    const round = await services.db
      .select({ id: leadPurchases.id })
      .from(leadPurchases)
      .where(due)
      .orderBy(asc(leadPurchases.guaranteeDueAt))
      .limit(BATCH);
    let progressed = 0;
    const count = async (one: SettledGuarantee | null) => {
      if (!one) return;
      progressed += 1;
      counts[one.outcome] = (counts[one.outcome] ?? 0) + 1;
      await onSettled?.(one);
    };
    const together = await settleAnsweredTogether(services, round.map((row) => row.id));
    for (const one of together) await count(one);
    const done = new Set(together.map((one) => one.purchaseId));
    const rest = round.filter((row) => !done.has(row.id));
    for (let i = 0; i < rest.length; i += SIDE_BY_SIDE) {
      const settled = await Promise.all(rest.slice(i, i + SIDE_BY_SIDE).map(({ id }) => settleGuarantee(services, id, { skipLocked: true })));
      for (const one of settled) await count(one);
    }
    if (round.length < BATCH || progressed === 0) return counts;
  }
}
