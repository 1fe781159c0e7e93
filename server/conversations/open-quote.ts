/** A quote of a thread, locked for its change: 404 when it is not the thread's, 409 when it is no longer open. */
import { and, eq } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { QUOTE_ANSWERS, quoteNoLongerOpen } from "#core/quotes.ts";
import type { Transaction } from "../db/client.ts";
import { quotes } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { ThreadLead } from "./thread-lead.ts";

async function quoteOfThread(tx: Transaction, lead: ThreadLead, quoteIdInput: unknown) {
  if (!isUuid(quoteIdInput)) throw new AppError("not_found", QUOTE_ANSWERS.notFound);
  const [quote] = await tx
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, quoteIdInput), eq(quotes.threadId, lead.threadId)))
    .for("update");
  if (!quote) throw new AppError("not_found", QUOTE_ANSWERS.notFound);
  return quote;
}

/** The digger's open quote `quoteIdInput` (an expired one may still be revised or withdrawn). */
export async function openQuoteOf(tx: Transaction, lead: ThreadLead, quoteIdInput: unknown) {
  const quote = await quoteOfThread(tx, lead, quoteIdInput);
  if (quote.status !== "open") throw new AppError("conflict", QUOTE_ANSWERS.notOpen);
  return quote;
}

/** The quote, open and not past its end: otherwise 'This quote is no longer open. Ask {handle} for a new one.' */
export async function decidableQuote(tx: Transaction, lead: ThreadLead, quoteIdInput: unknown) {
  const quote = await quoteOfThread(tx, lead, quoteIdInput);
  if (quote.status !== "open" || quote.expiresAt.getTime() <= Date.now()) throw new AppError("conflict", quoteNoLongerOpen(lead.handle));
  return quote;
}

