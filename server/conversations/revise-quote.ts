/** Revise a quote (issue 33): a new version of the digger's open quote, the old one 'replaced', in one transaction. */
import { eq } from "drizzle-orm";
import { QUOTE_MESSAGES, quoteChoiceSchema, type QuoteInput } from "#core/quotes.ts";
import { z } from "zod";
import { quotes } from "../db/schema.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { THREAD } from "./access.ts";
import { openQuoteOf } from "./open-quote.ts";
import { quoteFormInput, quoteInput } from "./quote-form.ts";
import { insertQuote, quotableLead } from "./quote-writing.ts";

/** A new version of open quote `quoteIdInput`; the old one shows 'Replaced by a newer quote'. */
async function reviseQuote(
  services: Pick<AppServices, "db" | "emit">,
  userId: string,
  threadId: string,
  quoteIdInput: unknown,
  input: QuoteInput,
  zone: string,
): Promise<{ success: string; quoteId: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await quotableLead(tx, userId, threadId);
    const old = await openQuoteOf(tx, lead, quoteIdInput);
    await tx.update(quotes).set({ status: "replaced", decidedAt: new Date() }).where(eq(quotes.id, old.id));
    const quoteId = await insertQuote(tx, zone, lead, input, old.id);
    await services.emit(tx, { kind: "quote.revised", gigId: lead.gigId, threadId: lead.threadId });
    return { success: QUOTE_MESSAGES.sent, quoteId };
  });
}

export const reviseThreadQuote = defineOperation({
  access: THREAD,
  input: (context: Parameters<typeof quoteInput>[0]) => z.intersection(quoteInput(context), quoteChoiceSchema),
  fields: (form) => ({ ...quoteFormInput(form), quoteId: form.get("quoteId") ?? undefined }),
  run: ({ services, user, thread, input }) => reviseQuote(services, user.id, thread.id, input.quoteId, input, readerTime(user.timeZone, services.config).zone),
});
