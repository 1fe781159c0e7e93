/**
 * A review report's limits and messages (core/ops-moderation.ts has its zod schema): apart, so
 * that the profile page does not download zod to show them (docs/decisions/0050).
 */
export const REPORT_REASON_MIN = 10;
export const REPORT_REASON_MAX = 500;

export const REVIEW_REPORT_MESSAGES = {
  reported: "Review reported",
  reasonRequired: `Please tell us why (at least ${REPORT_REASON_MIN} characters)`,
  reasonTooLong: `The reason can be at most ${REPORT_REASON_MAX} characters`,
  already: "You already reported this review",
  notFound: "Review not found",
} as const;

