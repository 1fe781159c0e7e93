/**
 * The reply guarantee's start (issue 48): a digger's message or quote, just written in
 * transaction `tx`, that was their first answer in the thread (threads.digger_messages is 1
 * after the insert: migration 0052's trigger counted it) and came within 24 hours of the
 * purchase (the trigger set lead_purchases.guarantee_due_at). Its event ("message.sent",
 * "quote.sent") then carries the purchase and its due time, which start the guarantee's check.
 */
import { and, eq, isNotNull, isNull, sql, type Placeholder } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { leadPurchases, threads } from "../db/schema.ts";
import type { JustCovered } from "../jobs/starts.ts";

/** The purchase thread `threadId`'s first digger answer just covered, or undefined (not the first, not within 24 hours, or the client wrote). */
export async function justCovered(tx: Transaction, threadId: string, senderUserId: string | null): Promise<JustCovered | undefined> {
  const [row] = await tx
    .select({ purchaseId: leadPurchases.id, dueAt: leadPurchases.guaranteeDueAt })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .where(
      and(
        eq(threads.id, threadId),
        eq(threads.diggerMessages, 1),
        // A quote is always the digger's; a message only when its sender is.
        senderUserId === null ? undefined : eq(threads.diggerUserId, senderUserId),
        isNotNull(leadPurchases.guaranteeDueAt),
        isNull(leadPurchases.guaranteeOutcome),
      ),
    );
  return row?.dueAt ? { purchaseId: row.purchaseId, dueAt: row.dueAt } : undefined;
}

/**
 * `justCovered`'s question as a column of the statement that updates the thread's row right
 * after the message's insert (send-message.ts: one round trip fewer under the thread's lock,
 * issue 52); `coveredOf` reads its value. The thread's columns are named with their table:
 * Drizzle writes a one-table statement's columns bare, which inside this subquery would name
 * lead_purchases' own column of that name if it ever had one.
 */
export function justCoveredColumn(senderUserId: string | Placeholder) {
  return sql<CoveredJson | null>`(select json_build_object('purchaseId', p.id, 'dueAt', p.guarantee_due_at) from lead_purchases p
    where p.id = threads.purchase_id and threads.digger_messages = 1 and threads.digger_user_id = ${senderUserId}
      and p.guarantee_due_at is not null and p.guarantee_outcome is null)`;
}

type CoveredJson = { purchaseId: string; dueAt: string };

export const coveredOf = (value: CoveredJson | null): JustCovered | undefined => (value ? { purchaseId: value.purchaseId, dueAt: new Date(value.dueAt) } : undefined);
