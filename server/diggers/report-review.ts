/** /digger/{id}: a signed-in user reports a review of the profile (the work is reviews/report-review.ts). */
import { reviewReportSchema } from "#core/ops-moderation.ts";
import { defineOperation } from "../operation.ts";
import { reportReview } from "../reviews/report-review.ts";
import { REVIEW_REPORT } from "./access.ts";

/** The answer names its review: without JavaScript the page shows it beside that review's form. */
export const reportOnProfile = defineOperation({
  access: REVIEW_REPORT,
  input: reviewReportSchema,
  async run({ services: { db }, user, params, input }) {
    const result = await reportReview(db, user.id, params.id ?? "", input);
    return { ...result, reportedReviewId: input.reviewId };
  },
});
