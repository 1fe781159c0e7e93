/**
 * Spots on a lead (issue 19, docs/decisions/0019-buyer-cap-and-holds.md): a client caps how
 * many diggers may buy their gig's lead, and a checkout holds one spot for HOLD_MINUTES.
 * Only completed purchases fill a lead; what one digger may hold is bounded (decision 0030).
 */

/** How long a started checkout holds a spot: the test checkout's lifetime, and Stripe's (see stripe-provider.ts). */
export const HOLD_MINUTES = 30;
export const HOLD_MS = HOLD_MINUTES * 60 * 1000;

export const MIN_DIGGERS = 1;
export const MAX_DIGGERS = 5;
/** What /post-gig offers first. */
export const DEFAULT_MAX_DIGGERS = 3;

/**
 * Why a lead is not for sale (server/leads/for-sale.ts), the first that holds: its gig is gone
 * (unpublished, deleted, withdrawn, or its client's account deleted), closed, hired (a digger is
 * hired for it and its client did not keep it open for more, issue 47), full of completed
 * purchases, every spot left is held by checkouts, or paused (its client opened none of its
 * threads 48 hours after a covered first answer, issue 48).
 */
export type NotForSale = "gone" | "closed" | "hired" | "full" | "held" | "paused";

/** Buying the lead of a gig whose client hired a digger (issue 47). */
export const GIG_HIRED = "The client has hired a digger for this gig, so its lead is no longer for sale.";

export const LEAD_FULL = "This lead is full";
/** Every spot that is not bought is held by other diggers' checkouts. */
export const SPOTS_HELD = "Someone is checking out this lead. Try again in a few minutes.";

/** A digger holds at most this many live checkouts at once (decision 0030). */
export const MAX_LIVE_HOLDS = 3;
export const TOO_MANY_HOLDS = "Finish or cancel one of your open checkouts first.";

/** Buying a lead needs a confirmed e-mail address, checked before any hold (issue 45). */
export const CONFIRM_EMAIL_TO_BUY = "Confirm your e-mail address to buy leads.";

/**
 * New accounts (younger than NEW_ACCOUNT_DAYS, no completed purchase) hold at most this many live
 * checkouts together per network (an IPv4 /24, an IPv6 /64): throwaway accounts from one place
 * cannot take spots faster than confirmed mailboxes allow, while diggers behind one mobile
 * carrier's shared addresses still fit (decision 0030, issue 45).
 */
export const MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK = 6;
export const NEW_ACCOUNT_DAYS = 7;
export const NETWORK_HOLDS_FULL = "Many new accounts on your network are checking out right now. Try again in a few minutes.";

/**
 * An account whose checkouts lapsed (ended unpaid: ran out or were cancelled) LAPSES_ALLOWED
 * times within LAPSE_WINDOW_HOURS starts no checkout for LAPSE_WAIT_HOURS after the last of them.
 */
export const LAPSES_ALLOWED = 3;
export const LAPSE_WINDOW_HOURS = 24;
export const LAPSE_WAIT_HOURS = 24;
export const lapsedWait = (until: string) => `You started several checkouts without paying. You can buy leads again on ${until}.`;

/** '{n} of {m} spots taken'. */
export const spotsText = (taken: number, max: number) => `${Math.min(taken, max)} of ${max} spots taken`;
