/** Who may use the gig pages, with the spec's message and destination for everyone else. */
import { signedIn } from "../guards.ts";

const CLIENTS_ONLY = { type: "consumer", message: "Only consumers can post gigs", redirectTo: "/" } as const;

/** /post-gig, the page. */
export const POST_GIG_PAGE = signedIn({
  signedOut: { message: "Please sign in to post a gig", redirectTo: "/auth?redirect=/post-gig" },
  userType: CLIENTS_ONLY,
});

/** /post-gig, the form sent: a visitor here had the page, so their session ended. */
export const POST_GIG_FORM = signedIn({
  signedOut: { message: "Session expired. Please sign in again.", redirectTo: "/auth?redirect=/post-gig" },
  userType: CLIENTS_ONLY,
});

/** /my-gigs and /my-gigs/{id}/edit: any signed-in user (only their own gigs show, or are found). */
export const MY_GIGS = signedIn({
  signedOut: { message: "Please sign in to view your gigs", redirectTo: "/auth?redirect=/my-gigs" },
});

/** Reporting, on /gig/{id}, one of the client's reviews from diggers: any signed-in user who may see the page (checked by the operation), once per review. */
export const CLIENT_REVIEW_REPORT = signedIn({ signedOut: { message: "Please sign in to report a review" } });
