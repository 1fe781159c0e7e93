/**
 * What sending and revising a quote share (issue 33): the thread's lead as its digger when it
 * may be quoted (never on a lead refunded in full, none once the gig has an accepted quote),
 * and the quote's rows, one open quote per gig and digger (the database's partial unique index
 * backs the check).
 */
import { and, eq, or } from "drizzle-orm";
import { QUOTE_ANSWERS, quoteExpiresAt, type QuoteInput } from "#core/quotes.ts";
import type { Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { quoteLineItems, quotes } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { threadLead, type ThreadLead } from "./thread-lead.ts";

/**
 * The thread's lead as its digger, when it may be quoted: not refunded in full, no quote of the
 * gig accepted, none of this thread 'Not chosen' (issue 47: a digger told so cannot quote again).
 */
export async function quotableLead(tx: Transaction, userId: string, threadId: string): Promise<ThreadLead> {
  const lead = await threadLead(tx, userId, threadId, "digger");
  if (lead.refunded) throw new AppError("conflict", QUOTE_ANSWERS.refunded);
  const [ended] = await tx
    .select({ status: quotes.status })
    .from(quotes)
    .where(and(eq(quotes.gigId, lead.gigId), or(eq(quotes.status, "accepted"), and(eq(quotes.threadId, lead.threadId), eq(quotes.status, "not_chosen")))))
    .limit(1);
  if (ended) throw new AppError("conflict", QUOTE_ANSWERS.alreadyAccepted);
  return lead;
}

/** `zone`: the quoting digger's: Valid until ends at midnight of that day on their clock. */
export async function insertQuote(tx: Transaction, zone: string, lead: ThreadLead, input: QuoteInput, replacesId: string | null): Promise<string> {
  const price = input.price;
  try {
    const [row] = await tx
      .insert(quotes)
      .values({
        threadId: lead.threadId,
        gigId: lead.gigId,
        diggerId: lead.diggerId,
        replacesId,
        type: price.type,
        amountCents: price.type === "fixed" ? price.amountCents : null,
        rateCents: price.type === "hourly" ? price.rateCents : null,
        hours: price.type === "hourly" ? String(price.hours) : null,
        lowCents: price.type === "estimate" ? price.lowCents : null,
        highCents: price.type === "estimate" ? price.highCents : null,
        included: input.included,
        startDate: input.startDate,
        validUntil: input.validUntil,
        expiresAt: quoteExpiresAt(input.validUntil, zone),
      })
      .returning({ id: quotes.id });
    if (input.lineItems.length > 0) {
      await tx.insert(quoteLineItems).values(input.lineItems.map((item, position) => ({ quoteId: row!.id, position, description: item.description, amountCents: item.amountCents })));
    }
    return row!.id;
  } catch (error) {
    // Two sends racing past the check: the database keeps one open quote per gig and digger.
    if (isUniqueViolation(error, "quotes_one_open_key")) throw new AppError("conflict", QUOTE_ANSWERS.alreadyOpen, { cause: error });
    throw error;
  }
}
