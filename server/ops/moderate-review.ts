/**
 * The console's Reviews queue (issue 22): Hide takes a reported review off the profile and out
 * of the digger's figures (the rating trigger leaves hidden reviews out, migration 0023), Keep
 * leaves it. Either closes all its open reports, in one transaction with the audit row.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { OPS_REVIEW_MESSAGES, reviewModerationSchema } from "#core/ops-moderation.ts";
import { diggerProfiles, gigs, reviewReports, reviews } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

export const moderateReview = defineOperation({
  access: operator,
  input: reviewModerationSchema,
  async run({ services, user: operator, input: { intent, reviewId } }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [review] = await tx
        .select({ id: reviews.id, diggerUserId: diggerProfiles.userId, clientId: gigs.clientId })
        .from(reviews)
        .innerJoin(diggerProfiles, eq(diggerProfiles.id, reviews.diggerId))
        .innerJoin(gigs, eq(gigs.id, reviews.gigId))
        .where(eq(reviews.id, reviewId))
        .for("no key update", { of: reviews });
      if (!review) throw new AppError("not_found", "Review not found");
      // A review of them or by them (the client who posted the gig).
      refuseOwnRecord(operator.id, review.diggerUserId, review.clientId);
      const closed = await tx
        .update(reviewReports)
        .set({ resolvedAt: sql`now()`, resolution: intent === "hide" ? "hidden" : "kept" })
        .where(and(eq(reviewReports.reviewId, reviewId), isNull(reviewReports.resolvedAt)))
        .returning({ reason: reviewReports.reason });
      if (closed.length === 0) throw new AppError("conflict", OPS_REVIEW_MESSAGES.noOpenReports);
      if (intent === "hide") await tx.update(reviews).set({ hiddenAt: sql`now()` }).where(eq(reviews.id, reviewId));
      await services.emit(tx, { kind: "review.moderated", operatorId: operator.id, reviewId, diggerUserId: review.diggerUserId, hidden: intent === "hide", reports: closed.length });
      return { success: intent === "hide" ? OPS_REVIEW_MESSAGES.hidden : OPS_REVIEW_MESSAGES.kept };
    });
  },
});
