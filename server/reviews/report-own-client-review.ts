/**
 * /account: the client reports one of their own reviews from diggers (issue 51), as a digger may
 * report a review on their own profile; the rules are report-review.ts's.
 */
import { reviewReportSchema } from "#core/ops-moderation.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { reportClientReview } from "./report-review.ts";

export const reportOwnClientReview = defineOperation({
  access: ACCOUNT_FORM,
  input: reviewReportSchema,
  async run({ services: { db }, user, input }) {
    // Only a review of the signed-in user: the form's review id is looked up among theirs.
    const result = await reportClientReview(db, user.id, user.id, input);
    return { ...result, reportedReviewId: input.reviewId };
  },
});
