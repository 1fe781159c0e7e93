/**
 * Report under a review on /digger/{id} (issue 22): any signed-in user, once per review, with a
 * reason. The unique index (review, reporter) holds the "once" against two requests at a time.
 * The report waits in the console's Reviews queue; nothing changes on the profile until an
 * operator hides the review. A digger's review of a client (issue 51) is reported the same way
 * from the Client reviews sections (a gig page, /account): review_reports' `client_review_id`.
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { REVIEW_REPORT_MESSAGES, type reviewReportSchema } from "#core/ops-moderation.ts";
import type { z } from "zod";
import type { Database } from "../db/client.ts";
import { clientReviews, diggerProfiles, reviewReports, reviews } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { shownClientReview } from "./client-reviews-list.ts";

export async function reportReview(db: Database, userId: string, diggerId: string, { reviewId, reason }: z.output<typeof reviewReportSchema>): Promise<{ success: string }> {
  if (!isUuid(diggerId)) throw new AppError("not_found", REVIEW_REPORT_MESSAGES.notFound);
  const [review] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, reviews.diggerId))
    // Only a review shown on this profile: published (issue 51), not hidden, on a profile that is itself shown.
    .where(and(eq(reviews.id, reviewId), eq(reviews.diggerId, diggerId), isNotNull(reviews.publishedAt), isNull(reviews.hiddenAt), isNull(diggerProfiles.hiddenAt)));
  if (!review) throw new AppError("not_found", REVIEW_REPORT_MESSAGES.notFound);
  const inserted = await db
    .insert(reviewReports)
    .values({ reviewId, reporterId: userId, reason })
    .onConflictDoNothing({ target: [reviewReports.reviewId, reviewReports.reporterId] })
    .returning({ id: reviewReports.id });
  if (inserted.length === 0) throw new AppError("conflict", REVIEW_REPORT_MESSAGES.already);
  return { success: REVIEW_REPORT_MESSAGES.reported };
}

/**
 * A report of client review `reviewId` among the reviews of client `clientId` the reporter can
 * see (the caller checked they may see that client's section): a blind, hidden or withdrawn
 * review, or another client's, is not found (404). Once per reporter (409).
 */
export async function reportClientReview(
  db: Database,
  userId: string,
  clientId: string,
  { reviewId, reason }: z.output<typeof reviewReportSchema>,
): Promise<{ success: string }> {
  const [review] = await db
    .select({ id: clientReviews.id })
    .from(clientReviews)
    .where(and(eq(clientReviews.id, reviewId), eq(clientReviews.clientId, clientId), shownClientReview()));
  if (!review) throw new AppError("not_found", REVIEW_REPORT_MESSAGES.notFound);
  const inserted = await db
    .insert(reviewReports)
    .values({ clientReviewId: reviewId, reporterId: userId, reason })
    .onConflictDoNothing({ target: [reviewReports.clientReviewId, reviewReports.reporterId] })
    .returning({ id: reviewReports.id });
  if (inserted.length === 0) throw new AppError("conflict", REVIEW_REPORT_MESSAGES.already);
  return { success: REVIEW_REPORT_MESSAGES.reported };
}
