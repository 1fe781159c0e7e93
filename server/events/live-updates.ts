/**
 * The live updates of the conversation's events (registry.ts's `live`): who hears of a thread
 * or a gig's quotes. The recipients come from the threads' own rows, never from the caller: no
 * other digger of the gig and nobody else hears of a quote (docs/decisions/0040-live-updates.md;
 * ids only).
 */
import { inArray } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { threads } from "../db/schema.ts";
import type { LiveUpdate } from "./declaration.ts";

/**
 * Quotes changed in these threads of a gig (sent, revised, withdrawn, accepted, declined, not
 * chosen, reopened): both parties of each thread (their open thread re-reads its cards), and
 * the gig's client of the gig's quotes (Compare Quotes re-reads).
 */
export async function quoteUpdates(tx: Transaction, gigId: string, threadIds: readonly string[]): Promise<LiveUpdate[]> {
  if (threadIds.length === 0) return [];
  const rows = await tx
    .select({ id: threads.id, diggerUserId: threads.diggerUserId, clientId: threads.clientId })
    .from(threads)
    .where(inArray(threads.id, [...threadIds]));
  const updates: LiveUpdate[] = rows.map((row) => ({ to: [row.diggerUserId, row.clientId], event: { kind: "thread", threadId: row.id } }));
  // Every thread of a gig is between one of its diggers and the gig's one client.
  const clients = [...new Set(rows.map((row) => row.clientId))];
  if (clients.length > 0) updates.push({ to: clients, event: { kind: "quotes", gigId } });
  return updates;
}

/** A thread changed for these of its parties (a message, a read mark). */
export const threadUpdate = (threadId: string, to: readonly string[]): LiveUpdate[] => [{ to, event: { kind: "thread", threadId } }];
