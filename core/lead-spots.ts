/**
 * Spots on a lead (issue 19, docs/decisions/0019-buyer-cap-and-holds.md): a client caps how
 * many diggers may buy their gig's lead, and a checkout holds one spot for HOLD_MINUTES.
 */

/** How long a started checkout holds a spot: the test checkout's lifetime, and Stripe's (see stripe-provider.ts). */
export const HOLD_MINUTES = 30;
export const HOLD_MS = HOLD_MINUTES * 60 * 1000;

export const MIN_DIGGERS = 1;
export const MAX_DIGGERS = 5;
/** What /post-gig offers first. */
export const DEFAULT_MAX_DIGGERS = 3;

export const LEAD_FULL = "This lead is full";

/** '{n} of {m} spots taken'. */
export const spotsText = (taken: number, max: number) => `${Math.min(taken, max)} of ${max} spots taken`;
