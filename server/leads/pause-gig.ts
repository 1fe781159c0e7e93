/**
 * A lead nobody can reach stops being sold (issue 48): when a covered purchase of a gig is past
 * its guarantee's due time (48 hours after its digger's first answer) and its client has opened
 * none of the gig's threads (nor replied in one, by the product or by e-mail), the gig is paused
 * (gigs.awaiting_reply, one term of the for-sale rule, server/leads/for-sale.ts): off Browse Gigs,
 * the landing, the sitemap and the alerts, and its page tells diggers who have not bought it.
 * The client is told once per pause ("gig.awaiting-reply"). Opening any of its threads puts it back
 * on sale (conversations/open-thread.ts).
 *
 * Called by the reply guarantee's check (leads/settle-guarantee.ts) in its transaction. Lock
 * order: the gig's row (a client opening a thread locks its thread, then the gig, so a pause and
 * an opening never both win: the statement after the lock reads the committed threads).
 */
import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { gigs, leadPurchases, threads } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";

/**
 * Pauses gig `gigId` when nobody can reach its client; true when it paused it now (the caller
 * empties the page cache after the commit: `services.pageCache.invalidate()`, as a job does).
 */
export async function pauseIfUnreached(tx: Transaction, emit: Emit, gigId: string): Promise<boolean> {
  const [gig] = await tx
    .select({ title: gigs.title, clientId: gigs.clientId, paused: gigs.awaitingReply, status: gigs.status, deletedAt: gigs.deletedAt })
    .from(gigs)
    .where(eq(gigs.id, gigId))
    .for("no key update");
  // A closed or deleted gig is not for sale anyway: nothing to pause, nobody to tell.
  if (!gig || gig.paused || gig.status !== "open" || gig.deletedAt) return false;
  // In the statements after the lock: a client's opening committed meanwhile is seen.
  const [due] = await tx
    .select({ id: leadPurchases.id })
    .from(leadPurchases)
    .where(and(eq(leadPurchases.gigId, gigId), eq(leadPurchases.status, "completed"), sql`${leadPurchases.guaranteeDueAt} <= now()`))
    .limit(1);
  if (!due) return false;
  const [reached] = await tx
    .select({ id: threads.id })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .where(and(eq(leadPurchases.gigId, gigId), or(isNotNull(threads.clientOpenedAt), isNotNull(threads.clientFirstReplyAt))))
    .limit(1);
  if (reached) return false;
  const paused = await tx
    .update(gigs)
    .set({ awaitingReply: true })
    .where(and(eq(gigs.id, gigId), eq(gigs.awaitingReply, false), isNull(gigs.deletedAt)))
    .returning({ id: gigs.id });
  if (paused.length === 0) return false;
  await emit(tx, { kind: "gig.awaiting-reply", gigId, clientUserId: gig.clientId, gigTitle: gig.title });
  return true;
}
