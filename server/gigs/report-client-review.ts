/**
 * /gig/{id}: a signed-in user who may see the page reports one of its Client reviews (issue 51);
 * the work, and the rules shared with a digger's reviews, are reviews/report-review.ts.
 */
import { reviewReportSchema } from "#core/ops-moderation.ts";
import { actsAsOperator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { reportClientReview } from "../reviews/report-review.ts";
import { CLIENT_REVIEW_REPORT } from "./access.ts";
import { gigClientSeenBy } from "./gig-page.ts";

/** The answer names its review: without JavaScript the page shows it beside that review's form. */
export const reportClientReviewOnGig = defineOperation({
  access: CLIENT_REVIEW_REPORT,
  input: reviewReportSchema,
  async run({ services: { db, config }, user, params, input }) {
    // A gig the reporter may not see (withdrawn, unpublished, deleted) is not found, as its page is.
    const clientId = await gigClientSeenBy(db, params.id ?? "", { ...user, operator: actsAsOperator(config, user) });
    const result = await reportClientReview(db, user.id, clientId, input);
    return { ...result, reportedReviewId: input.reviewId };
  },
});
