/**
 * /digger/{id}, the page: the public profile, its reviews a page at a time. Its forms:
 * ask-reference-contact.ts, reply-to-review.ts and report-review.ts.
 */
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { diggerPage } from "./public-profile.ts";

export const diggerProfilePage = defineOperation({
  access: anyone,
  async run({ services: { db, config }, user, params, url }) {
    const reviewsCursor = url.searchParams.get("cursor");
    const page = await diggerPage(db, params.id ?? "", user, reviewsCursor);
    // ?report={reviewId}: that review's Report form is open (the Report link, without JavaScript).
    const reportReviewId = user ? url.searchParams.get("report") : null;
    // Its times as the reader reads them (issue 47): a visitor, in the site's default zone.
    const time = readerTime(user?.timeZone, config);
    const verifiedCredentials = page.digger.verifiedCredentials.map((c) => ({ ...c, verifiedOnText: time.date(c.verifiedOn) }));
    const items = page.reviews.page.items.map((review) => ({ ...review, createdAtText: time.list(review.createdAt), createdAtTitle: time.dateTime(review.createdAt) }));
    return {
      ...page,
      digger: { ...page.digger, verifiedCredentials },
      reviews: { ...page.reviews, page: { ...page.reviews.page, items } },
      reviewsCursor,
      reportReviewId,
    };
  },
});
