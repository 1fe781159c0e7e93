/**
 * What a purchase's thread shows (issue 48): the digger's first answer, when the client first
 * opened it, and how many each side wrote, read from the thread's own columns (kept by the
 * database, migration 0052). Shown beside every refund decision: the client's issues dialog, the
 * digger's lead card, the operators' payments page and user page; and read by the reply
 * guarantee's check. Never another digger's thread, never a message's words.
 */
import { leadPurchases, threads } from "../db/schema.ts";

/** The columns of one purchase's evidence, for a select that joins `threads` on the purchase. */
export const evidenceColumns = {
  purchasedAt: leadPurchases.purchasedAt,
  diggerFirstAt: threads.diggerFirstAt,
  clientOpenedAt: threads.clientOpenedAt,
  diggerMessages: threads.diggerMessages,
  clientMessages: threads.clientMessages,
};
