/**
 * The client opening a thread (issue 48): the first time the gig's client opens a thread with
 * something of its digger's in it (a message or a quote), threads.client_opened_at is set, the
 * evidence that decides the reply guarantee (leads/thread-evidence.ts). Only the client's own
 * page sets it (view-thread.ts): an operator's look at a reported message in the console never
 * does. Opening any thread of a gig paused by the guarantee (leads/pause-gig.ts) puts the gig
 * back on sale, with its lead alerts, as a gig becoming visible does.
 *
 * Runs in the read mark's transaction (conversations/thread.ts), after it: lock order the
 * thread's row, then the gig's (the pause takes the gig's alone, then reads the threads).
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { gigs, leadPurchases, threads } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { whyNotForSale } from "../leads/for-sale.ts";

/** Client's opening of thread `threadId`; true when it put a paused gig back on sale (the caller empties the page cache after the commit). */
export async function recordClientOpening(tx: Transaction, emit: Emit, threadId: string): Promise<boolean> {
  const opened = await tx
    .update(threads)
    .set({ clientOpenedAt: sql`now()` })
    .where(and(eq(threads.id, threadId), isNull(threads.clientOpenedAt), isNotNull(threads.diggerFirstAt)))
    .returning({ id: threads.id });
  const [gig] = await tx
    .select({ id: gigs.id, paused: gigs.awaitingReply })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .where(eq(threads.id, threadId));
  // A first opening takes the gig's lock even when it is not paused: a pause being decided waits
  // for this commit and then sees the opening.
  if (!gig || (opened.length === 0 && !gig.paused)) return false;
  const [locked] = await tx.select({ paused: gigs.awaitingReply }).from(gigs).where(eq(gigs.id, gig.id)).for("no key update");
  if (!locked?.paused) return false;
  await tx.update(gigs).set({ awaitingReply: false }).where(eq(gigs.id, gig.id));
  const why = await whyNotForSale(tx, gig.id);
  if (why === null || why === "held") await emit(tx, { kind: "gig.visible", gigId: gig.id });
  return true;
}
