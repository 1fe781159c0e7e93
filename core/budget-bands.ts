/** The budget bands of Browse Gigs (spec section 9), kept apart from zod so pages can import them cheaply. */
export const BUDGET_BANDS = ["under1k", "1k-5k", "over5k"] as const;
export type BudgetBand = (typeof BUDGET_BANDS)[number];
export const BUDGET_BAND_LABELS: Record<BudgetBand, string> = {
  under1k: "Under $1,000",
  "1k-5k": "$1,000 - $5,000",
  over5k: "Over $5,000",
};
