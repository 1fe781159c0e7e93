/**
 * The conversations' reaction to a removed hire (the event "hire.removed", wired by
 * server/services.ts): a quote of the digger's accepted for the gig is open again (issue 33),
 * and both parties' open pages and the client's Compare Quotes hear of it ("quote.reopened").
 */
import { and, eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { quotes } from "../db/schema.ts";
import type { Emit, Reactions } from "../events/emit.ts";

async function reopenAcceptedQuote(tx: Transaction, { gigId, diggerId }: { gigId: string; diggerId: string }, emit: Emit): Promise<void> {
  const reopened = await tx
    .update(quotes)
    .set({ status: "open", decidedAt: null })
    .where(and(eq(quotes.gigId, gigId), eq(quotes.diggerId, diggerId), eq(quotes.status, "accepted")))
    .returning({ threadId: quotes.threadId });
  if (reopened.length > 0) await emit(tx, { kind: "quote.reopened", gigId, threadIds: reopened.map((row) => row.threadId) });
}

/** What the conversations do when another area's event happens. */
export const CONVERSATION_REACTIONS: Reactions = { "hire.removed": reopenAcceptedQuote };
