/**
 * The quotes of a thread, oldest first, for its two parties only (the 404 page for anyone else,
 * as the thread itself): each as a card shows it, its line items in order, its price as quoted
 * and the figure quotes are compared by, and whether it is still open (open and not past its end).
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { QuoteCard } from "#core/quote-views.ts";
import { comparablePrice, quotedPrice } from "#core/quotes.ts";
import type { Database } from "../db/client.ts";
import { quoteLineItems, quotes } from "../db/schema.ts";
import { threadParty } from "../messages/access.ts";
import { quotePrice } from "./price.ts";

/** At most this many versions are shown in a thread. */
const QUOTES_LIMIT = 200;

export type { QuoteCard };

export async function threadQuotes(db: Database, userId: string, threadId: string, now = new Date()): Promise<QuoteCard[]> {
  const party = await threadParty(db, userId, threadId);
  const rows = await db.select().from(quotes).where(eq(quotes.threadId, party.id)).orderBy(asc(quotes.createdAt), asc(quotes.id)).limit(QUOTES_LIMIT);
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(quoteLineItems)
    .where(
      inArray(
        quoteLineItems.quoteId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(quoteLineItems.position));
  return rows.map((row) => {
    const price = quotePrice(row);
    return {
      id: row.id,
      replacesId: row.replacesId,
      price,
      priceText: quotedPrice(price),
      comparableCents: comparablePrice(price),
      included: row.included,
      lineItems: items.filter((item) => item.quoteId === row.id).map((item) => ({ description: item.description, amountCents: item.amountCents })),
      startDate: row.startDate,
      validUntil: row.validUntil,
      status: row.status,
      open: row.status === "open" && row.expiresAt.getTime() > now.getTime(),
      declineReason: row.declineReason,
      createdAt: row.createdAt.toISOString(),
    };
  });
}
