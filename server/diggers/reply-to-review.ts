/** /digger/{id}: the digger replies to a review of their profile (the work is reviews/profile-reviews.ts). */
import { replyFormSchema } from "#core/reviews.ts";
import { defineOperation } from "../operation.ts";
import { replyToReview } from "../reviews/profile-reviews.ts";
import { REVIEW_REPLY } from "./access.ts";

/** The reply and its review are the input; the review is checked with the profile (not yours: 403, as before). */
export const replyOnProfile = defineOperation({
  access: REVIEW_REPLY,
  input: replyFormSchema,
  run: ({ services: { db }, user, params, input: { reviewId, ...reply } }) => replyToReview(db, user.id, params.id ?? "", reviewId, reply),
});
