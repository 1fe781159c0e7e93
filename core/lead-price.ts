/**
 * The one-time fee for a lead (design.md section 1): 0.5% of the gig's minimum budget,
 * never less than $50.00, in integer cents. A gig with no minimum costs the minimum.
 * Only the server's result is ever charged.
 */
export const MINIMUM_LEAD_PRICE_CENTS = 5000;
export const LEAD_PRICE_RATE = 0.005;

export function leadPriceCents(budgetMinCents: number | null | undefined): number {
  if (budgetMinCents === null || budgetMinCents === undefined || budgetMinCents <= 0) return MINIMUM_LEAD_PRICE_CENTS;
  return Math.max(MINIMUM_LEAD_PRICE_CENTS, Math.round(budgetMinCents * LEAD_PRICE_RATE));
}
