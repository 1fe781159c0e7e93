/**
 * A quote changed (sent, revised, withdrawn, accepted, declined, or not chosen by an accept):
 * the live stream tells both parties of each thread it touched (their open thread re-reads its
 * cards), and the gig's client alone of the gig's quotes (Compare Quotes re-reads). The
 * recipients come from the threads' rows, never from the caller: no other digger of the gig
 * and nobody else hears of a quote (docs/decisions/0040-live-updates.md; ids only).
 */
import { inArray } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { threads } from "../db/schema.ts";
import { publishLive } from "../live/publish.ts";

export async function quotesChanged(tx: Transaction, gigId: string, threadIds: readonly string[]): Promise<void> {
  if (threadIds.length === 0) return;
  const rows = await tx
    .select({ id: threads.id, diggerUserId: threads.diggerUserId, clientId: threads.clientId })
    .from(threads)
    .where(inArray(threads.id, [...threadIds]));
  for (const row of rows) await publishLive(tx, [row.diggerUserId, row.clientId], { kind: "thread", threadId: row.id });
  // Every thread of a gig is between one of its diggers and the gig's one client.
  const clients = [...new Set(rows.map((row) => row.clientId))];
  if (clients.length > 0) await publishLive(tx, clients, { kind: "quotes", gigId });
}
