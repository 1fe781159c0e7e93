/**
 * A gig's texts and limits, for pages that show them without checking a form (My Gigs, a gig's
 * page, the forms' hints): kept apart from gig-schema.ts so that such a page does not download
 * zod with the schemas (issue 35, first-visit JavaScript).
 */
import { MAX_DIGGERS, MIN_DIGGERS } from "./lead-spots.ts";

export const MAX_DIGGERS_MESSAGE = `Maximum diggers must be a whole number from ${MIN_DIGGERS} to ${MAX_DIGGERS}`;

/** The gig phone's hint: who sees the number. */
export const PHONE_HINT = "Shown only to diggers who buy this lead";
export const TITLE_MIN = 10;
export const TITLE_MAX = 100;
export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 2000;
/** $100,000,000: beyond any real gig, and far inside the database's range. */
export const BUDGET_MAX_DOLLARS = 100_000_000;

export const GIG_EDIT_TEXTS = {
  saved: "Gig updated",
  deleted: "Gig deleted",
  lockedNote:
    "Someone has bought this lead, so only the timeline, deadline, contact preferences and phone can change: the diggers paid for the gig as it was described.",
  lockedConflict:
    "Someone bought this lead while you were editing: only the timeline, deadline, contact preferences and phone can change now.",
  notDeletable: "This gig has been bought, so it cannot be deleted: close it instead.",
  deleteQuestion: "Delete this gig? It disappears for good; nobody has bought it yet.",
} as const;

export const GIG_STATUS_FAILED = "Failed to update gig status";

/** The question My Gigs asks when a gig with purchases is closed (issue 19), and its answers. */
export const GIG_FILLED_TEXTS = {
  title: "Was this gig filled?",
  description: "Diggers bought this lead. If you hired someone, we let them know the gig is filled.",
  yes: "Yes, I hired someone",
  no: "No, just close it",
  badge: "Filled",
  closedFilled: "Gig closed and marked as filled",
} as const;

/**
 * A hire ends the sale (issue 47): My Gigs says 'Hired' (badge and switch) while a hire holds the
 * gig off sale, names the hired diggers, and offers to keep it open for more diggers.
 */
export const GIG_HIRED_TEXTS = {
  status: "Hired",
  hiredLine: (handle: string) => `Hired: ${handle}`,
  keepOpen: "Keep it open for more diggers",
  keptOpen: "Your gig is back on Browse Gigs: more diggers can buy its lead.",
  notHired: "Nobody is hired for this gig: its lead is already for sale.",
  /** The badge of a gig not published yet (its client has not confirmed their e-mail). */
  unpublished: "Waiting for e-mail confirmation",
} as const;

/** Where My Gigs tells a client whose e-mail is not confirmed what is left to do (issue 47). */
export const almostDoneText = (email: string) => `Almost done: confirm your e-mail to publish your gig. We sent a link to ${email}.`;
