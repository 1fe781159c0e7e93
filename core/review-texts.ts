/**
 * Reviews' limits, messages and labels (core/reviews.ts has the forms' zod schemas): apart, so
 * that a page showing them does not download zod (docs/decisions/0041, 0050).
 */
export const REVIEW_MIN = 20;
export const REVIEW_MAX = 2000;
export const REPLY_MIN = 10;
export const REPLY_MAX = 1000;
/** A client may edit their review for this many days after posting it. */
export const REVIEW_EDIT_DAYS = 30;
/** The profile shows this many reviews a page. */
export const REVIEWS_PAGE_SIZE = 10;
/** 'Hired on N% of leads' shows once a digger bought at least this many leads. */
export const HIRE_RATE_MIN_PURCHASES = 5;

export const TRUST_MESSAGES = {
  chooseRating: "Please choose a rating",
  reviewTooShort: `Review must be at least ${REVIEW_MIN} characters`,
  reviewTooLong: `Review must be at most ${REVIEW_MAX} characters`,
  reviewPosted: "Review posted. Thank you!",
  reviewUpdated: "Review updated",
  replyTooShort: `Reply must be at least ${REPLY_MIN} characters`,
  replyTooLong: `Reply must be at most ${REPLY_MAX} characters`,
  replyPosted: "Reply posted",
  hired: "Marked as hired",
  hireRemoved: "Hire removed",
  loadFailed: "Failed to load diggers",
  notYourGig: "You can only manage diggers on your own gigs",
  noPurchase: "This digger has not bought this gig's lead",
  refunded: "This lead was fully refunded: it cannot be reviewed",
  refundedHire: "This lead was fully refunded: it cannot be marked as hired",
  withdrawn: "Withdrawn: the lead was refunded",
  alreadyReviewed: "You have already reviewed this digger for this gig",
  editWindowClosed: `Reviews can only be edited within ${REVIEW_EDIT_DAYS} days`,
  notYourReview: "You can only reply to reviews on your own profile",
  alreadyReplied: "You have already replied to this review",
  reviewNotFound: "Review not found",
} as const;

/** A count of characters as the database counts them (code points, trimmed). */
export const textLength = (text: string) => [...text.trim()].length;

export const STAR_VALUES = [1, 2, 3, 4, 5] as const;
/** '1 star', '2 stars', ... */
export const starLabel = (stars: number) => `${stars} ${stars === 1 ? "star" : "stars"}`;

