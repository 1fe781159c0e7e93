/**
 * The console's Reviews queue (issue 22): Hide takes a reported review off the profile and out
 * of the digger's figures (the rating trigger leaves hidden reviews out, migration 0023), Keep
 * leaves it. Either closes all its open reports, in one transaction with the audit row. A
 * digger's review of a client (issue 51, `side` "client") is decided the same way: hidden, it
 * leaves the client's Client reviews sections and record (migration 0056's trigger); its audit
 * row is a 'review' with `side: "client"` in its details.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { OPS_REVIEW_MESSAGES, reviewModerationSchema, type ReviewSide } from "#core/ops-moderation.ts";
import type { Transaction } from "../db/client.ts";
import { clientReviews, diggerProfiles, gigs, reviewReports, reviews } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** The review `reviewId` of `side` locked for the decision: its digger's and its client's accounts, or null. */
async function lockedReview(tx: Transaction, side: ReviewSide, reviewId: string): Promise<{ diggerUserId: string; clientId: string } | null> {
  if (side === "client") {
    const [review] = await tx
      .select({ diggerUserId: diggerProfiles.userId, clientId: clientReviews.clientId })
      .from(clientReviews)
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, clientReviews.diggerId))
      .where(eq(clientReviews.id, reviewId))
      .for("no key update", { of: clientReviews });
    return review ?? null;
  }
  const [review] = await tx
    .select({ diggerUserId: diggerProfiles.userId, clientId: gigs.clientId })
    .from(reviews)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, reviews.diggerId))
    .innerJoin(gigs, eq(gigs.id, reviews.gigId))
    .where(eq(reviews.id, reviewId))
    .for("no key update", { of: reviews });
  return review ?? null;
}

export const moderateReview = defineOperation({
  access: operator,
  input: reviewModerationSchema,
  async run({ services, user: operator, input: { intent, reviewId, side } }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const review = await lockedReview(tx, side, reviewId);
      if (!review) throw new AppError("not_found", "Review not found");
      // A review of them or by them: the digger and the client of its gig.
      refuseOwnRecord(operator.id, review.diggerUserId, review.clientId);
      const subject = side === "client" ? reviewReports.clientReviewId : reviewReports.reviewId;
      const closed = await tx
        .update(reviewReports)
        .set({ resolvedAt: sql`now()`, resolution: intent === "hide" ? "hidden" : "kept" })
        .where(and(eq(subject, reviewId), isNull(reviewReports.resolvedAt)))
        .returning({ reason: reviewReports.reason });
      if (closed.length === 0) throw new AppError("conflict", OPS_REVIEW_MESSAGES.noOpenReports);
      if (intent === "hide") {
        if (side === "client") await tx.update(clientReviews).set({ hiddenAt: sql`now()` }).where(eq(clientReviews.id, reviewId));
        else await tx.update(reviews).set({ hiddenAt: sql`now()` }).where(eq(reviews.id, reviewId));
      }
      await services.emit(tx, {
        kind: "review.moderated",
        operatorId: operator.id,
        reviewId,
        // The reviewed party: the digger, or the client.
        reviewedUserId: side === "client" ? review.clientId : review.diggerUserId,
        hidden: intent === "hide",
        reports: closed.length,
        ...(side === "client" ? { side } : {}),
      });
      if (intent === "keep") return { success: OPS_REVIEW_MESSAGES.kept };
      return { success: side === "client" ? OPS_REVIEW_MESSAGES.hiddenClient : OPS_REVIEW_MESSAGES.hidden };
    });
  },
});
