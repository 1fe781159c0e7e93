/**
 * Response time, earned (issue 33): how fast a digger usually answers a lead, from the time
 * between each purchase and the digger's first message or quote in its thread. One rule,
 * shown on the profile, on Browse Talent's cards and in the quote comparison; never a figure
 * the product did not measure.
 *
 * Over the digger's purchases of the last 90 days: the median of those delays, shown only once
 * at least 3 purchases count and they come from at least 3 different clients (one client's
 * gigs bought three times prove nothing, issue 45 finding 8). A purchase counts once its first
 * answer came, or once it is a day old without one: from then on it is surely "more than a
 * day" (the rule counts a purchase with no message within 7 days as more than a day; a
 * day without one already is). A purchase younger than a day with no answer yet is not
 * counted: its delay is not known. Which purchases and answers are read at all (not refunded
 * in full; messages and quotes still shown) is server/conversations/response-time.ts's query.
 */

export const RESPONSE_WINDOW_DAYS = 90;
const RESPONSE_MIN_PURCHASES = 3;
const RESPONSE_MIN_CLIENTS = 3;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface PurchaseResponse {
  purchasedAt: Date;
  /** The client whose gig was bought. */
  clientId: string;
  /** The digger's first message or quote in the purchase's thread; null: none yet. */
  firstAnswerAt: Date | null;
}

/** The purchases that count, each with its delay in milliseconds (Infinity: more than a day with no answer). */
function countedDelays(purchases: PurchaseResponse[], now: Date): Array<{ clientId: string; delay: number }> {
  const since = now.getTime() - RESPONSE_WINDOW_DAYS * DAY;
  const counted: Array<{ clientId: string; delay: number }> = [];
  for (const { purchasedAt, clientId, firstAnswerAt } of purchases) {
    if (purchasedAt.getTime() < since) continue;
    if (firstAnswerAt) counted.push({ clientId, delay: Math.max(0, firstAnswerAt.getTime() - purchasedAt.getTime()) });
    else if (now.getTime() - purchasedAt.getTime() > DAY) counted.push({ clientId, delay: Infinity });
  }
  return counted;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * 'Usually responds within an hour' (median 1 hour or less), '... within a few hours' (6 hours
 * or less), '... within a day' (24 hours or less); null when the median is more than a day, or
 * fewer than 3 purchases count, or they come from fewer than 3 clients.
 */
export function responseTimeLabel(purchases: PurchaseResponse[], now: Date = new Date()): string | null {
  const counted = countedDelays(purchases, now);
  if (counted.length < RESPONSE_MIN_PURCHASES) return null;
  if (new Set(counted.map((purchase) => purchase.clientId)).size < RESPONSE_MIN_CLIENTS) return null;
  const typical = median(counted.map((purchase) => purchase.delay));
  if (typical <= HOUR) return "Usually responds within an hour";
  if (typical <= 6 * HOUR) return "Usually responds within a few hours";
  if (typical <= DAY) return "Usually responds within a day";
  return null;
}
