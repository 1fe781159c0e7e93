/**
 * Two-way reviews, blind until both have spoken (issue 51, docs/decisions/0077-two-way-reviews.md):
 * the window's constants and every text its pages, e-mails and notices use. Apart from the zod
 * schemas (core/reviews.ts `clientReviewSchema`) so that a page showing them carries no zod.
 * Dates arrive as the server's text in the reader's zone (server/reader-time.ts).
 */
import { formatRating } from "./digger-display.ts";

/** A hire's two reviews are blind for this many days from the hire, then published. */
export const REVIEW_WINDOW_DAYS = 14;
/** The side that has not written hears once this many days before the window ends. */
export const REVIEW_REMINDER_DAYS = 3;
/** The gig page's Client reviews section: this many a page, newest first. */
export const CLIENT_REVIEWS_PAGE_SIZE = 10;

/** The digger's three optional yes/no questions about the client, in the form's order. */
export const CLIENT_REVIEW_QUESTIONS = [
  { name: "asDescribed", label: "The job was as described" },
  { name: "easyToReach", label: "Easy to reach" },
  { name: "paidAsAgreed", label: "Paid as agreed" },
] as const;
export type ClientReviewQuestion = (typeof CLIENT_REVIEW_QUESTIONS)[number]["name"];

export const TWO_WAY_TEXTS = {
  /** The form's submit button (both sides' forms say the same). */
  submit: "Submit Review",
  /** The digger's form's text field. */
  bodyLabel: "Your review",
  bodyTooShort: "Please write at least 20 characters",
  bodyTooLong: "Review must be at most 2000 characters",
  chooseRating: "Please choose a rating",
  posted: "Review saved. It will be shown when both of you have reviewed, or when the 14 days end.",
  published: "Review posted. Both reviews are now shown.",
  updated: "Review updated",
  /** An edit after publication, either side. */
  locked: "This review is published and can no longer be changed",
  /** No open window: not hired, the 14 days are over, or the hire was removed. */
  noWindow: "You can review a client for 14 days after they hire you",
  /** The client's side, after a hire's 14 days. */
  clientWindowOver: "You can review a digger you hired for 14 days after the hire",
  notYourLead: "You can only review clients of your own leads",
  refunded: "This lead was fully refunded: it cannot be reviewed",
  alreadyReviewed: "You have already reviewed this client for this gig",
  notFound: "Review not found",
  /** The Client reviews section of a gig page and of /account. */
  sectionTitle: "Client reviews",
  noReviews: "No reviews from diggers yet.",
  /** /account's block heading. */
  accountTitle: "Your record with diggers",
  /** ... and what it is. */
  accountHint: "Diggers see these lines on your gig pages before they buy a lead.",
  /** A reviewer whose digger account was deleted. */
  formerDigger: "Former digger",
  withdrawn: "Withdrawn: the lead was refunded",
} as const;

/** The lead card's and the thread menu's button: 'Review Maria'. */
export const reviewClientLabel = (firstName: string) => `Review ${firstName}`;

/** Either side, under their unpublished review: `name` the other party, `date` the window's end in the reader's zone. */
export const waitingForOtherText = (name: string, date: string) => `Your review will be shown when ${name} has reviewed you, or on ${date}`;

/** The other side's reminder (bell, e-mail subject, push) when the first review arrives, and again REVIEW_REMINDER_DAYS before the end. */
export const reviewedYouText = (name: string, date: string) => `${name} reviewed you. Write yours by ${date} to see it.`;

/** The digger's notice when the client removed the hire while their review was blind: it is discarded. */
export const reviewDiscardedText = (clientName: string, gigTitle: string) =>
  `${clientName} removed the hire for "${gigTitle}" before both reviews were shown: your review was discarded`;

/** Both parties' notice once the two reviews are shown. */
export const reviewsPublishedText = (gigTitle: string) => `Your reviews for "${gigTitle}" are now shown`;

/** '4.8 from 3 diggers': the client's published reviews from diggers (one decimal, halves up, as a digger's rating). */
export function clientRatingLine(average: number, count: number): string | null {
  if (count === 0) return null;
  return `${formatRating(average)} from ${count} ${count === 1 ? "digger" : "diggers"}`;
}

/** 'Paid as agreed: 100% yes (3 answers)', or null when nobody answered it. */
export function yesShareLine(label: string, yes: number, no: number): string | null {
  const answers = yes + no;
  if (answers === 0) return null;
  return `${label}: ${Math.round((100 * yes) / answers)}% yes (${answers} ${answers === 1 ? "answer" : "answers"})`;
}

/** A digger's review of a client as a gig page's Client reviews section (and /account) shows it. */
export interface PublicClientReview {
  id: string;
  rating: number;
  body: string;
  /** The digger's handle ('Former digger' once their account is deleted). */
  diggerHandle: string;
  /** The digger's profile to link, null once deleted (or while an operator hides it). */
  diggerId: string | null;
  /** ISO time with microseconds (the page's cursor). */
  publishedAt: string;
  answers: Record<ClientReviewQuestion, boolean | null>;
}

// ---------------------------------------------------------------- the digger's form (issue 51)

/** The digger's own review of a client, as they wrote it (yes/no answers: null when not answered). */
export interface OwnClientReview {
  rating: number;
  body: string;
  asDescribed: boolean | null;
  easyToReach: boolean | null;
  paidAsAgreed: boolean | null;
}

/**
 * The digger's review form for one lead (server/reviews/client-review.ts `clientReviewForm`):
 * `open` (may write, or edit the review not yet shown), `published` (shown: no more edits),
 * `closed` (`closedText` says why). Never the client's review of the digger.
 */
export interface ClientReviewForm {
  purchaseId: string;
  gigTitle: string;
  clientFirstName: string;
  state: "open" | "published" | "closed";
  closedText: string | null;
  review: OwnClientReview | null;
  /** waitingForOtherText while the digger's review is written and not yet shown. */
  waitingText: string | null;
}

/**
 * The entry to that form on a lead's card (/my-leads) and in the thread's menu: `open` (the
 * window runs and nothing is written), `waiting` (written, not yet shown: `waitingText`),
 * `published` (shown: 'Reviewed').
 */
export interface ClientReviewEntry {
  purchaseId: string;
  firstName: string;
  state: "open" | "waiting" | "published";
  waitingText: string | null;
}

export const CLIENT_REVIEW_TEXTS = {
  /** The card's state once the digger's review is shown. */
  reviewed: "Reviewed",
  edit: "Edit review",
  loadFailed: "Failed to load the review",
  yes: "Yes",
  no: "No",
  clear: "Clear answer",
  questionsHint: "Optional: answer the ones you can.",
} as const;

/** The digger's form's description: what the review is about, and that it is blind. */
export const clientReviewIntro = (firstName: string, gigTitle: string) =>
  `How was working with ${firstName} on "${gigTitle}"? ${firstName} sees your review once both of you have reviewed, or when the ${REVIEW_WINDOW_DAYS} days end.`;

/** A client review as a page shows it: its publication date written by the server in the reader's zone. */
export type ShownClientReview = PublicClientReview & { publishedAtText: string; publishedAtTitle: string };
