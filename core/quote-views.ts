/**
 * Quotes as the pages show them (issue 33): a thread's quote card, and Compare Quotes' shape and texts. One column (on a phone, one card) per
 * open quote of a gig, the same rows in the same order; the marks 'Lowest price' and 'Fastest
 * reply' (`comparisonMarks`).
 */
import type { CredentialKind } from "./credentials.ts";
import { comparablePrice, type QuotePrice } from "./quotes.ts";

type QuoteStatus = "open" | "withdrawn" | "replaced" | "accepted" | "declined" | "not_chosen";

/** A quote as its thread shows it to the two parties (server/conversations/thread-quotes.ts). */
export interface QuoteCard {
  id: string;
  replacesId: string | null;
  price: QuotePrice;
  priceText: string;
  comparableCents: number;
  included: string;
  lineItems: Array<{ description: string; amountCents: number }>;
  startDate: string | null;
  validUntil: string;
  status: QuoteStatus;
  /** Open and not past its end: the client may accept or decline it. */
  open: boolean;
  declineReason: string | null;
  createdAt: string;
}

/** What the thread's quote forms need beyond the page's cards (server/conversations/thread-quotes.ts `threadQuoteState`). */
export interface ThreadQuoteState {
  hasOpen: boolean;
  accepted: boolean;
  /** The digger may send a quote: none open, none accepted on the gig, theirs never 'Not chosen' (quote-writing.ts refuses alike). */
  canQuote: boolean;
}

export interface ComparedQuote {
  id: string;
  threadId: string;
  digger: {
    id: string;
    handle: string;
    averageRating: number;
    totalRatings: number;
    verified: boolean;
    verifiedCredentials: CredentialKind[];
    hires: number;
    /** core/response-time.ts's label, or null. */
    responseTime: string | null;
  };
  price: QuotePrice;
  priceText: string;
  comparableCents: number;
  included: string;
  lineItems: Array<{ description: string; amountCents: number }>;
  startDate: string | null;
  validUntil: string;
  /** Past its end (midnight after Valid until): greyed, no Accept. */
  expired: boolean;
  /** From the purchase to the digger's first message or quote in its thread, in milliseconds. */
  answeredAfterMs: number | null;
}

export interface QuoteComparison {
  /** `openForMore`: its client chose 'Keep it open for more diggers' after the hire (issue 47). */
  gig: { id: string; title: string; status: string; filled: boolean; openForMore: boolean; purchaseCount: number };
  quotes: ComparedQuote[];
  /** The gig's accepted quote, if any: the page offers to close the gig as filled. */
  accepted: { handle: string; priceText: string } | null;
  /** The quote ids marked 'Lowest price' / 'Fastest reply' (among the ones not expired); more than one: a tie. */
  lowestIds: string[];
  fastestIds: string[];
}

export const COMPARE_TEXTS = {
  title: "Compare Quotes",
  link: (count: number) => `Compare Quotes (${count})`,
  none: "No open quotes for this gig.",
  rows: {
    digger: "Digger",
    type: "Type",
    rating: "Rating",
    verified: "Verified",
    hires: "Hires through Digs & Gigs",
    price: "Price as quoted",
    comparable: "Comparable price",
    included: "What is included",
    lineItems: "Line items",
    startDate: "Start date",
    validUntil: "Valid until",
    reply: "Answered this lead",
  },
  newDigger: "New",
  notVerified: "Not verified",
  empty: "—",
  thread: "Thread",
  tie: (mark: string) => `${mark} (tie)`,
} as const;

/** '45 minutes', '3 hours', '2 days' after the purchase. */
export function replyDelayText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `within ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `within ${hours} ${hours === 1 ? "hour" : "hours"}`;
  const days = Math.round(hours / 24);
  return `within ${days} days`;
}

/** What a quote can come to, in cents: a fixed price and an hourly total exactly, an estimate anywhere from its low to its high end. */
function priceRange(price: QuotePrice): [number, number] {
  if (price.type === "estimate") return [price.lowCents, price.highCents];
  const total = comparablePrice(price);
  return [total, total];
}

/**
 * The marks, among the quotes not expired (issue 47). 'Lowest price': a quote whose highest
 * possible total is at most every other one's lowest, whatever an estimate turns out to be (an
 * estimate of $1,100 to $1,600 and a fixed $1,450: neither); equal ones tie and are all marked.
 * 'Fastest reply': the quickest first answer to the lead, ties being the answers that read the
 * same ('within 5 minutes' twice: both).
 */
export function comparisonMarks(quotes: ComparedQuote[]): { lowestIds: string[]; fastestIds: string[] } {
  const live = quotes.filter((quote) => !quote.expired);
  const ranges = new Map(live.map((quote) => [quote.id, priceRange(quote.price)]));
  const lowestIds = live.filter((quote) => live.every((other) => other === quote || ranges.get(quote.id)![1] <= ranges.get(other.id)![0])).map((quote) => quote.id);
  const answered = live.filter((quote) => quote.answeredAfterMs !== null);
  const quickest = Math.min(...answered.map((quote) => quote.answeredAfterMs!));
  const fastestIds = answered.filter((quote) => replyDelayText(quote.answeredAfterMs!) === replyDelayText(quickest)).map((quote) => quote.id);
  return { lowestIds, fastestIds };
}
