/** Withdraw a quote (issue 33): the thread's digger, their open quote, until the client decides. */
import { eq } from "drizzle-orm";
import { QUOTE_ANSWERS, quoteChoiceSchema } from "#core/quotes.ts";
import { quotes } from "../db/schema.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { THREAD } from "./access.ts";
import { openQuoteOf } from "./open-quote.ts";
import { threadLead } from "./thread-lead.ts";

export async function withdrawQuote(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, quoteIdInput: unknown): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await threadLead(tx, userId, threadId, "digger");
    const quote = await openQuoteOf(tx, lead, quoteIdInput);
    await tx.update(quotes).set({ status: "withdrawn", decidedAt: new Date() }).where(eq(quotes.id, quote.id));
    await services.emit(tx, { kind: "quote.withdrawn", gigId: lead.gigId, threadId: lead.threadId });
    return { success: QUOTE_ANSWERS.withdrawn };
  });
}

export const withdrawThreadQuote = defineOperation({
  access: THREAD,
  input: quoteChoiceSchema,
  run: ({ services, user, thread, input }) => withdrawQuote(services, user.id, thread.id, input.quoteId),
});
