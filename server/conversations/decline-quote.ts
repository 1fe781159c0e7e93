/**
 * Decline a quote (issue 33), with an optional reason the digger reads (quote.declined); the
 * digger may quote again. Only the gig's client (403 for the digger, the 404 page for anyone
 * else); the quote open and not expired.
 */
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { QUOTE_ANSWERS, declineSchema, quoteChoiceSchema, type DeclineInput } from "#core/quotes.ts";
import { quotes } from "../db/schema.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { THREAD } from "./access.ts";
import { decidableQuote } from "./open-quote.ts";
import { threadLead } from "./thread-lead.ts";

/** `reason`: core/quotes.ts's `declineSchema` parsed it (the operation's `input`). */
async function declineQuote(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, quoteIdInput: unknown, { reason }: DeclineInput): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await threadLead(tx, userId, threadId, "client");
    const quote = await decidableQuote(tx, lead, quoteIdInput);
    await tx
      .update(quotes)
      .set({ status: "declined", declineReason: reason ?? null, decidedAt: sql`now()` })
      .where(eq(quotes.id, quote.id));
    await services.emit(tx, {
      kind: "quote.declined",
      quoteId: quote.id,
      gigId: lead.gigId,
      threadId: lead.threadId,
      diggerUserId: lead.diggerUserId,
      clientFirstName: lead.clientFirstName,
      gigTitle: lead.gigTitle,
      reason: reason ?? null,
    });
    return { success: QUOTE_ANSWERS.declined };
  });
}


export const declineThreadQuote = defineOperation({
  access: THREAD,
  input: z.intersection(declineSchema, quoteChoiceSchema),
  run: ({ services, user, thread, input }) => declineQuote(services, user.id, thread.id, input.quoteId, input),
});
