/**
 * Compare Quotes (issue 33): the open quotes of one gig, for its client only. Anyone else gets
 * the 404 page (operators too: quotes are the thread parties', decision 0043). An open quote past
 * its end is listed, marked expired, without Accept.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { comparisonMarks, type ComparedQuote, type QuoteComparison } from "#core/quote-views.ts";
import { isUuid } from "#core/ids.ts";
import { comparablePrice, quotedPrice } from "#core/quotes.ts";
import type { Database } from "../db/client.ts";
import { credentialDocuments, diggerProfiles, gigs, leadPurchases, quoteLineItems, quotes, threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { mayHoldLiveStreams } from "../live/admission.ts";
import { signedIn } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { quotePrice } from "./quote-price.ts";
import { responseTimes } from "./response-time.ts";

/** Who may open the page: signed in (then only the gig's client sees it). */
const COMPARE_QUOTES_ACCESS = signedIn({
  signedOut: { message: "Please sign in to view your gigs" },
});

/** A gig sells at most a handful of leads: one open quote per digger, so few rows. */
const QUOTES_LIMIT = 50;

export async function quoteComparison(db: Database, userId: string, gigId: string, now: Date = new Date()): Promise<QuoteComparison> {
  const notFound = new AppError("not_found", "Gig not found");
  if (!isUuid(gigId)) throw notFound;
  const [gig] = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      status: gigs.status,
      filled: sql<boolean>`${gigs.filledAt} is not null`,
      openForMore: gigs.openForMore,
      purchaseCount: gigs.purchaseCount,
      clientId: gigs.clientId,
    })
    .from(gigs)
    .where(and(eq(gigs.id, gigId), isNull(gigs.deletedAt)));
  if (!gig || gig.clientId !== userId) throw notFound;
  const p = diggerProfiles;
  const rows = await db
    .select({
      quote: quotes,
      threadId: threads.id,
      handle: p.handle,
      averageRating: p.averageRating,
      totalRatings: p.totalRatings,
      verified: p.verified,
      hires: sql<number>`(select count(*)::int from hires h where h.digger_id = ${p.id})`,
      answeredAfterMs: sql<number | null>`extract(epoch from (least(
        (select min(m.created_at) from messages m where m.thread_id = ${threads.id} and m.sender_id = ${threads.diggerUserId}),
        (select min(q2.created_at) from quotes q2 where q2.thread_id = ${threads.id})
      ) - ${leadPurchases.purchasedAt})) * 1000`,
    })
    .from(quotes)
    .innerJoin(threads, eq(threads.id, quotes.threadId))
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(p, eq(p.id, quotes.diggerId))
    .where(and(eq(quotes.gigId, gig.id), eq(quotes.status, "open")))
    .orderBy(asc(quotes.createdAt), asc(quotes.id))
    .limit(QUOTES_LIMIT);
  const quoteIds = rows.map((row) => row.quote.id);
  const diggerIds = [...new Set(rows.map((row) => row.quote.diggerId))];
  const [items, credentials, replies] = await Promise.all([
    quoteIds.length ? db.select().from(quoteLineItems).where(inArray(quoteLineItems.quoteId, quoteIds)).orderBy(asc(quoteLineItems.position)) : [],
    diggerIds.length
      ? db
          .select({ diggerId: credentialDocuments.diggerId, credential: credentialDocuments.credential })
          .from(credentialDocuments)
          .where(
            and(
              inArray(credentialDocuments.diggerId, diggerIds),
              eq(credentialDocuments.status, "approved"),
              sql`${credentialDocuments.verifiedUntil} >= (now() at time zone 'UTC')::date`,
            ),
          )
      : [],
    responseTimes(db, diggerIds, now),
  ]);
  const compared: ComparedQuote[] = rows.map((row) => {
    const price = quotePrice(row.quote);
    return {
      id: row.quote.id,
      threadId: row.threadId,
      digger: {
        id: row.quote.diggerId,
        handle: row.handle,
        averageRating: Number(row.averageRating),
        totalRatings: row.totalRatings,
        verified: row.verified,
        verifiedCredentials: [...new Set(credentials.filter((c) => c.diggerId === row.quote.diggerId).map((c) => c.credential))],
        hires: Number(row.hires),
        responseTime: replies.get(row.quote.diggerId) ?? null,
      },
      price,
      priceText: quotedPrice(price),
      comparableCents: comparablePrice(price),
      included: row.quote.included,
      lineItems: items.filter((item) => item.quoteId === row.quote.id).map((item) => ({ description: item.description, amountCents: item.amountCents })),
      startDate: row.quote.startDate,
      validUntil: row.quote.validUntil,
      expired: row.quote.expiresAt.getTime() <= now.getTime(),
      answeredAfterMs: row.answeredAfterMs === null ? null : Math.max(0, Math.round(Number(row.answeredAfterMs))),
    };
  });
  const [accepted] = await db
    .select({ quote: quotes, handle: p.handle })
    .from(quotes)
    .innerJoin(p, eq(p.id, quotes.diggerId))
    .where(and(eq(quotes.gigId, gig.id), eq(quotes.status, "accepted")));
  const { clientId: _owner, ...shown } = gig;
  return {
    gig: shown,
    quotes: compared,
    accepted: accepted ? { handle: accepted.handle, priceText: quotedPrice(quotePrice(accepted.quote)) } : null,
    ...comparisonMarks(compared),
  };
}

/** /my-gigs/{id}/quotes: the open quotes of one of my gigs side by side. */
export const compareQuotes = defineOperation({
  access: COMPARE_QUOTES_ACCESS,
  async run({ services: { db }, user, params }) {
    // `since`: the live stream resyncs at once if a quote came between this read and its start.
    // `live`: whether the page opens a live stream (server/live/admission.ts).
    return { comparison: await quoteComparison(db, user.id, params.gigId ?? ""), live: await mayHoldLiveStreams(db, user.id), since: Date.now() };
  },
});
