/**
 * The quotes of a thread as cards, for its two parties only (the 404 page for anyone else, as
 * the thread itself): each as a card shows it, its line items in order, its price as quoted and
 * the figure quotes are compared by, and whether it is still open (open and not past its end).
 * `threadQuotes`: all of them, oldest first (the data export); `threadQuotePage`: the newest
 * before a thread page's cursor, for the page's one list of messages and quotes (thread.ts).
 */
import { and, asc, desc, eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { QuoteCard, ThreadQuoteState } from "#core/quote-views.ts";
import { comparablePrice, quotedPrice } from "#core/quotes.ts";
import { queryRows, type Database } from "../db/client.ts";
import { quoteLineItems, quotes } from "../db/schema.ts";
import { threadParty } from "./access.ts";
import { exactTimestamp } from "../pagination.ts";
import { quotePrice } from "./quote-price.ts";

/** At most this many versions are exported with a thread. */
const QUOTES_LIMIT = 200;

export type { QuoteCard };

type QuoteRow = typeof quotes.$inferSelect;

export async function threadQuotes(db: Database, userId: string, threadId: string, now = new Date()): Promise<QuoteCard[]> {
  const party = await threadParty(db, userId, threadId);
  const rows = await db.select().from(quotes).where(eq(quotes.threadId, party.id)).orderBy(asc(quotes.createdAt), asc(quotes.seq)).limit(QUOTES_LIMIT);
  return quoteCards(db, rows, now);
}

/** A quote card with its place in the thread's list: `at` (created_at with its microseconds) and `seq`. */
export type PlacedQuoteCard = QuoteCard & { at: string; seq: number };

/**
 * The newest `limit` quotes of thread `threadId` (already checked: its party asks) sent before
 * `before` (created_at, seq), newest first: the quotes' half of a thread page (quotes_thread_idx).
 */
export async function threadQuotePage(db: Database, threadId: string, before: readonly [string, number] | null, limit: number, now = new Date()): Promise<PlacedQuoteCard[]> {
  const rows = await db
    .select({ quote: quotes, at: exactTimestamp(quotes.createdAt) })
    .from(quotes)
    .where(and(eq(quotes.threadId, threadId), before ? sql`(${quotes.createdAt}, ${quotes.seq}) < (${before[0]}::timestamptz, ${before[1]}::bigint)` : undefined))
    .orderBy(desc(quotes.createdAt), desc(quotes.seq))
    .limit(limit);
  const cards = await quoteCards(
    db,
    rows.map((row) => row.quote),
    now,
  );
  return cards.map((card, n) => ({ ...card, at: rows[n]!.at, seq: rows[n]!.quote.seq }));
}

async function quoteCards(db: Database, rows: QuoteRow[], now: Date): Promise<QuoteCard[]> {
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

/**
 * What the thread's quote forms need beyond the page's cards (the open quote may be further back
 * than the page): whether the thread has an open quote, or an accepted one, and whether its
 * digger may quote at all. An open quote past its Valid until counts: it is still the digger's
 * one open quote (the database allows one), to revise or withdraw until the client decides; a
 * second one would be refused. A quote 'Not chosen' in the thread, or any quote of the gig
 * accepted, ends quoting on it (issue 47).
 */
export async function threadQuoteState(db: Database, threadId: string, gigId: string): Promise<ThreadQuoteState> {
  const [row] = await queryRows<{ state: ThreadQuoteState }>(db, sql`select ${quoteStateOf(threadId, gigId)} as state`);
  return row!.state;
}

/**
 * `threadQuoteState` as one column of a larger select (the thread page's head, thread.ts): one
 * pass over the gig's open, accepted and not chosen quotes (quotes' gig index).
 */
export function quoteStateOf(threadId: SQLWrapper | string, gigId: SQLWrapper | string) {
  return sql<ThreadQuoteState>`(select json_build_object(
      'hasOpen', coalesce(bool_or(q.thread_id = ${threadId} and q.status = 'open'), false),
      'accepted', coalesce(bool_or(q.thread_id = ${threadId} and q.status = 'accepted'), false),
      'canQuote', not coalesce(bool_or(q.status = 'accepted' or (q.thread_id = ${threadId} and q.status in ('open', 'not_chosen'))), false))
    from ${quotes} q where q.gig_id = ${gigId} and q.status in ('open', 'accepted', 'not_chosen'))`;
}
