/**
 * Quotes as the pages show them (issue 33): a thread's quote card, and Compare Quotes' shape and texts. One column (on a phone, one card) per
 * open quote of a gig, the same rows in the same order; the lowest comparable figure is marked
 * 'Lowest price', the quickest first answer to the lead 'Fastest reply'.
 */
import type { CredentialKind } from "./credentials.ts";
import type { QuotePrice } from "./quotes.ts";

export type QuoteStatus = "open" | "withdrawn" | "replaced" | "accepted" | "declined" | "not_chosen";

/** A quote as its thread shows it to the two parties (server/quotes/thread-quotes.ts). */
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
  gig: { id: string; title: string; status: string; filled: boolean; purchaseCount: number };
  quotes: ComparedQuote[];
  /** The gig's accepted quote, if any: the page offers to close the gig as filled. */
  accepted: { handle: string; priceText: string } | null;
  /** The quote ids marked 'Lowest price' / 'Fastest reply' (among the ones not expired). */
  lowestId: string | null;
  fastestId: string | null;
}

export const COMPARE_TEXTS = {
  title: "Compare Quotes",
  link: (count: number) => `Compare Quotes (${count})`,
  none: "No open quotes for this gig.",
  rows: {
    digger: "Digger",
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

/** The marks: the lowest comparable figure and the quickest answer, among the quotes not expired (the first of a tie). */
export function comparisonMarks(quotes: ComparedQuote[]): { lowestId: string | null; fastestId: string | null } {
  const live = quotes.filter((quote) => !quote.expired);
  const lowest = live.reduce<ComparedQuote | null>((best, quote) => (!best || quote.comparableCents < best.comparableCents ? quote : best), null);
  const answered = live.filter((quote) => quote.answeredAfterMs !== null);
  const fastest = answered.reduce<ComparedQuote | null>((best, quote) => (!best || quote.answeredAfterMs! < best.answeredAfterMs! ? quote : best), null);
  return { lowestId: lowest?.id ?? null, fastestId: fastest?.id ?? null };
}
