/**
 * Send a Quote (issue 33): only the thread's digger (403 for the client, the 404 page for
 * anyone else), on a lead that may be quoted (quote-writing.ts), with the form's own schema
 * (core/quotes.ts) and today in the server's time zone; one open quote per gig and digger.
 */
import { and, eq } from "drizzle-orm";
import { QUOTE_ANSWERS, QUOTE_MESSAGES, type QuoteInput } from "#core/quotes.ts";
import { quotes } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { THREAD } from "./access.ts";
import { justCovered } from "./first-answer.ts";
import { quoteFormInput, quoteInput } from "./quote-form.ts";
import { insertQuote, quotableLead } from "./quote-writing.ts";

/** `input`: the form as core/quotes.ts's `quoteSchema` parsed it (the operation's `input`). */
async function sendQuote(services: Pick<AppServices, "db" | "emit">, userId: string, threadId: string, input: QuoteInput, zone: string): Promise<{ success: string; quoteId: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await quotableLead(tx, userId, threadId);
    const [open] = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(eq(quotes.gigId, lead.gigId), eq(quotes.diggerId, lead.diggerId), eq(quotes.status, "open")));
    if (open) throw new AppError("conflict", QUOTE_ANSWERS.alreadyOpen);
    const quoteId = await insertQuote(tx, zone, lead, input, null);
    // The digger's first answer within 24 hours of buying starts the reply guarantee's check (issue 48).
    const guarantee = await justCovered(tx, lead.threadId, null);
    await services.emit(tx, { kind: "quote.sent", gigId: lead.gigId, threadId: lead.threadId, guarantee });
    return { success: QUOTE_MESSAGES.sent, quoteId };
  });
}

export const sendThreadQuote = defineOperation({
  access: THREAD,
  input: quoteInput,
  fields: quoteFormInput,
  run: ({ services, user, thread, input }) => sendQuote(services, user.id, thread.id, input, readerTime(user.timeZone, services.config).zone),
});
