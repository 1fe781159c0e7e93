/**
 * The digger's side of a quote (issue 33): Send a Quote, Revise (a new version; the old one
 * 'replaced', in one transaction) and Withdraw, until the client decides. Only the thread's
 * digger (403 for the client, the 404 page for anyone else); never on a lead refunded in full;
 * the form's own schema (core/quotes.ts) with today in the server's time zone; one open quote
 * per gig and digger (the database's partial unique index backs the check); none once the gig
 * has an accepted quote. Each change is on the live stream (live.ts).
 */
import { and, eq } from "drizzle-orm";
import { QUOTE_ANSWERS, QUOTE_MESSAGES, quoteExpiresAt, type QuoteInput } from "#core/quotes.ts";
import type { Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { quoteLineItems, quotes } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { quotesChanged } from "./live.ts";
import { openQuoteOf } from "./open-quote.ts";
import { threadLead, type ThreadLead } from "./thread-lead.ts";

type Services = Pick<AppServices, "db" | "config">;

/** `input`: the form as core/quotes.ts's `quoteSchema` parsed it (the operation's `input`, messages/thread-page.ts). */
export async function sendQuote(services: Services, userId: string, threadId: string, input: QuoteInput): Promise<{ success: string; quoteId: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await quotableLead(tx, userId, threadId);
    const [open] = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(eq(quotes.gigId, lead.gigId), eq(quotes.diggerId, lead.diggerId), eq(quotes.status, "open")));
    if (open) throw new AppError("conflict", QUOTE_ANSWERS.alreadyOpen);
    const quoteId = await insertQuote(tx, services.config, lead, input, null);
    await quotesChanged(tx, lead.gigId, [lead.threadId]);
    return { success: QUOTE_MESSAGES.sent, quoteId };
  });
}

/** A new version of open quote `quoteIdInput`; the old one shows 'Replaced by a newer quote'. */
export async function reviseQuote(services: Services, userId: string, threadId: string, quoteIdInput: unknown, input: QuoteInput): Promise<{ success: string; quoteId: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await quotableLead(tx, userId, threadId);
    const old = await openQuoteOf(tx, lead, quoteIdInput);
    await tx.update(quotes).set({ status: "replaced", decidedAt: new Date() }).where(eq(quotes.id, old.id));
    const quoteId = await insertQuote(tx, services.config, lead, input, old.id);
    await quotesChanged(tx, lead.gigId, [lead.threadId]);
    return { success: QUOTE_MESSAGES.sent, quoteId };
  });
}

export async function withdrawQuote(services: Pick<AppServices, "db">, userId: string, threadId: string, quoteIdInput: unknown): Promise<{ success: string }> {
  return services.db.transaction(async (tx) => {
    const lead = await threadLead(tx, userId, threadId, "digger");
    const quote = await openQuoteOf(tx, lead, quoteIdInput);
    await tx.update(quotes).set({ status: "withdrawn", decidedAt: new Date() }).where(eq(quotes.id, quote.id));
    await quotesChanged(tx, lead.gigId, [lead.threadId]);
    return { success: QUOTE_ANSWERS.withdrawn };
  });
}

/** The thread's lead as its digger, when it may be quoted: not refunded in full, no quote of the gig accepted. */
async function quotableLead(tx: Transaction, userId: string, threadId: string): Promise<ThreadLead> {
  const lead = await threadLead(tx, userId, threadId, "digger");
  if (lead.refunded) throw new AppError("conflict", QUOTE_ANSWERS.refunded);
  const [accepted] = await tx
    .select({ id: quotes.id })
    .from(quotes)
    .where(and(eq(quotes.gigId, lead.gigId), eq(quotes.status, "accepted")));
  if (accepted) throw new AppError("conflict", QUOTE_ANSWERS.alreadyAccepted);
  return lead;
}

async function insertQuote(tx: Transaction, config: Services["config"], lead: ThreadLead, input: QuoteInput, replacesId: string | null): Promise<string> {
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
        expiresAt: quoteExpiresAt(input.validUntil, config.timeZone),
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
