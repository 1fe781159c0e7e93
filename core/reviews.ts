/**
 * Earned trust (issue 20; docs/decisions/0022-earned-trust.md): hires, reviews and replies.
 * The forms' schemas with their exact messages, the display rules (a reviewer as 'Maria S.',
 * 'Hired on N% of leads' from five purchases), and the shapes the pages receive.
 */
import { z } from "zod";
import { TWO_WAY_TEXTS } from "./two-way-reviews.ts";
import { HIRE_RATE_MIN_PURCHASES, REPLY_MAX, REPLY_MIN, REVIEW_EDIT_DAYS, REVIEW_MAX, REVIEW_MIN, textLength, TRUST_MESSAGES } from "./review-texts.ts";

export { REVIEW_MIN, REVIEW_MAX, REPLY_MIN, REPLY_MAX, REVIEW_EDIT_DAYS, REVIEWS_PAGE_SIZE, HIRE_RATE_MIN_PURCHASES, TRUST_MESSAGES, textLength, STAR_VALUES, starLabel } from "./review-texts.ts";

const text = (min: number, max: number, short: string, long: string) =>
  z
    .string({ error: short })
    .transform((value) => value.trim())
    .refine((value) => textLength(value) >= min, { error: short })
    .refine((value) => textLength(value) <= max, { error: long });

/**
 * A rating as the form sends it: exactly one digit, 1 to 5, or that whole number. Not a
 * number's other spellings (`1e0`, `0x5`, ` 5 `, `5.0`), which a number conversion would take
 * (issue 30): what is stored is what the stars said.
 */
const starRating = z.union([z.enum(["1", "2", "3", "4", "5"]).transform(Number), z.literal([1, 2, 3, 4, 5])], {
  error: TRUST_MESSAGES.chooseRating,
});

/** Leave a Review / edit it: a rating of 1 to 5 stars and 20 to 2000 characters. */
export const reviewSchema = z.object({
  rating: starRating,
  body: text(REVIEW_MIN, REVIEW_MAX, TRUST_MESSAGES.reviewTooShort, TRUST_MESSAGES.reviewTooLong),
});

/**
 * A yes/no question of the digger's review of a client (issue 51): 'yes', 'no', or unanswered ('' or
 * absent: null). Optional as a key (`.optional()`): a union with z.undefined() still made an absent
 * field an error, and a form sends nothing for a question left unanswered.
 */
const yesNo = z
  .union([z.literal(["yes", "no", ""]), z.boolean(), z.null()], { error: "Please answer yes or no" })
  .optional()
  .transform((value) => (value === "yes" || value === true ? true : value === "no" || value === false ? false : null));

/** The digger's review of a client (issue 51): the same stars, 20 to 2,000 characters, three optional yes/no answers. */
export const clientReviewSchema = z.object({
  rating: starRating,
  body: text(REVIEW_MIN, REVIEW_MAX, TWO_WAY_TEXTS.bodyTooShort, TWO_WAY_TEXTS.bodyTooLong),
  asDescribed: yesNo,
  easyToReach: yesNo,
  paidAsAgreed: yesNo,
});

/** The digger's reply to a review on their profile. */
export const replySchema = z.object({
  reply: text(REPLY_MIN, REPLY_MAX, TRUST_MESSAGES.replyTooShort, TRUST_MESSAGES.replyTooLong),
});

/**
 * The forms as the server reads them: the review's digger (Leave a Review) and the reply's
 * review (a profile's Reply) come with the text, any value, checked by the operation against
 * the gig's purchases or the profile's reviews (their 409 and 403 stay the same for a missing
 * or malformed id).
 */
export const reviewFormSchema = reviewSchema.extend({ diggerId: z.unknown().optional() });
export const replyFormSchema = replySchema.extend({ reviewId: z.unknown().optional() });

/**
 * A reviewer as the public sees them: first name and last initial ('Maria S.'); a single name
 * as it is. Never the e-mail or the full last name.
 */
export function reviewerName(fullName: string | null | undefined): string {
  const parts = (fullName ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "A client";
  const first = parts[0]!;
  if (parts.length === 1) return first;
  const initial = [...parts.at(-1)!][0]!.toUpperCase();
  return `${first} ${initial}.`;
}

/** The reviewer of a review whose client deleted their account. */
export const FORMER_CLIENT = "Former client";

/** 'Hired on 60% of leads', or null while the digger has fewer than five purchases. */
export function hireRateText(completionRate: number, purchases: number): string | null {
  return purchases >= HIRE_RATE_MIN_PURCHASES ? `Hired on ${completionRate}% of leads` : null;
}

/** Whether a review posted at `createdAt` may still be edited at `now`. */
export function reviewEditable(createdAt: Date | string, now: Date = new Date()): boolean {
  return now.getTime() - new Date(createdAt).getTime() < REVIEW_EDIT_DAYS * 24 * 3_600_000;
}

/** A row of the Diggers dialog of /my-gigs: one completed purchase of the gig. */
export interface GigBuyer {
  diggerId: string;
  handle: string;
  profileImageUrl: string | null;
  averageRating: number;
  totalRatings: number;
  purchasedAt: string;
  /** "Nov 28, 2026": the purchase's day in the client's zone (issue 47). */
  purchasedAtText: string;
  hired: boolean;
  /** A review may be left: the purchase was not refunded in full. */
  reviewable: boolean;
  /**
   * The client's own review of this digger. In a hire's review window (issue 51) it stays
   * unpublished (`published` false) until the digger has reviewed the client or the window ends,
   * with `waitingText` ('Your review will be shown when …, or on {date}'); editable only until
   * published. Outside a window (no hire), editable for REVIEW_EDIT_DAYS as before.
   */
  review: { rating: number; body: string; createdAt: string; editable: boolean; published: boolean; waitingText: string | null } | null;
  /** The purchase's conversation with this digger (issue 32). */
  threadId: string | null;
}

/** A review as /digger/{id} shows it. */
export interface PublicReview {
  id: string;
  rating: number;
  body: string;
  reviewer: string;
  createdAt: string;
  hired: boolean;
  reply: string | null;
  repliedAt: string | null;
  /** Its purchase was refunded in full: out of every figure, shown only to the digger (marked). */
  withdrawn: boolean;
}

export interface ReviewSummary {
  count: number;
  average: number;
  /** How many reviews gave each number of stars, 5 first. */
  breakdown: Array<{ stars: number; count: number }>;
}

/** Which digger Mark as Hired (or its undo) is for: the id as sent; the operation checks it bought the gig. */
export const hireChoiceSchema = z.object({ diggerId: z.string().optional() });
