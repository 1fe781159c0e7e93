/**
 * /digger/{id} as operations (decision 0044): the public profile, and its three forms (a
 * client asks for a reference's contact, the digger replies to a review, a signed-in user
 * reports one). The work stays in its modules; these declare who may do it.
 */
import { referenceContactSchema } from "#core/digger-schemas.ts";
import { reviewReportSchema } from "#core/ops-moderation.ts";
import { replySchema } from "#core/reviews.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { replyToReview } from "../reviews/profile-reviews.ts";
import { reportReview } from "../reviews/report-review.ts";
import { REFERENCE_CONTACT, REVIEW_REPLY, REVIEW_REPORT } from "./access.ts";
import { diggerPage } from "./public-profile.ts";
import { requestReferenceContact } from "./reference-requests.ts";

export const diggerProfilePage = defineOperation({
  access: anyone,
  async run({ services: { db }, user, params, url }) {
    const reviewsCursor = url.searchParams.get("cursor");
    const page = await diggerPage(db, params.id ?? "", user, reviewsCursor);
    // ?report={reviewId}: that review's Report form is open (the Report link, without JavaScript).
    const reportReviewId = user ? url.searchParams.get("report") : null;
    return { ...page, reviewsCursor, reportReviewId, now: new Date().toISOString() };
  },
});

/** The reply is the input; its review stays the form's, checked with the profile (not yours: 403, as before). */
export const replyOnProfile = defineOperation({
  access: REVIEW_REPLY,
  input: replySchema,
  run: ({ services: { db }, user, params, form, input }) => replyToReview(db, user.id, params.id ?? "", form?.get("reviewId"), input),
});

/** The answer names its review: without JavaScript the page shows it beside that review's form. */
export const reportOnProfile = defineOperation({
  access: REVIEW_REPORT,
  input: reviewReportSchema,
  async run({ services: { db }, user, params, input }) {
    const result = await reportReview(db, user.id, params.id ?? "", input);
    return { ...result, reportedReviewId: input.reviewId };
  },
});

export const askReferenceContact = defineOperation({
  access: REFERENCE_CONTACT,
  input: referenceContactSchema,
  run: ({ services, user, params, input }) => requestReferenceContact(services, user, params.id ?? "", input),
});
