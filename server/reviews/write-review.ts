/**
 * Leave a Review and edit it (issue 20; design.md section 7): only the gig's owner (403), only
 * for a digger with a completed purchase of the gig (409) that was not refunded in full (409),
 * once per gig and digger (the unique index reviews_gig_digger_key; 409), editable for
 * REVIEW_EDIT_DAYS. The digger's average_rating and total_ratings are recomputed by the database
 * in the same transaction (migration 0016). The digger is e-mailed. An edit sends a review an
 * operator kept after a report back to the operators (issue 22).
 */
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { REVIEW_EDIT_DAYS, reviewFormSchema, type reviewSchema, TRUST_MESSAGES } from "#core/reviews.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { reviewReports, reviews } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { completedPurchase, GIG_BUYERS_ACCESS, ownedGig } from "./gig-buyers.ts";

type Services = Pick<AppServices, "db" | "emit">;

/** The review `{ rating, body }` (parsed by `reviewSchema`) of digger `diggerId` (the form's, unchecked). */
async function saveReview(
  services: Services,
  clientId: string,
  gigId: string,
  diggerId: unknown,
  { rating, body }: z.output<typeof reviewSchema>,
  edit: boolean,
): Promise<{ success: string }> {
  const { db, emit } = services;
  const gig = await ownedGig(db, clientId, gigId);
  const purchase = await completedPurchase(db, gig.id, diggerId);
  if (purchase.refunded) throw new AppError("conflict", TRUST_MESSAGES.refunded);

  await db.transaction(async (tx) => {
    if (edit) {
      const [updated] = await tx
        .update(reviews)
        .set({ rating, body })
        .where(
          and(
            eq(reviews.gigId, gig.id),
            eq(reviews.diggerId, purchase.diggerId),
            sql`${reviews.createdAt} > now() - make_interval(days => ${REVIEW_EDIT_DAYS}::int)`,
          ),
        )
        .returning({ id: reviews.id });
      if (!updated) {
        const [existing] = await tx
          .select({ id: reviews.id })
          .from(reviews)
          .where(and(eq(reviews.gigId, gig.id), eq(reviews.diggerId, purchase.diggerId)));
        throw existing
          ? new AppError("conflict", TRUST_MESSAGES.editWindowClosed)
          : new AppError("not_found", TRUST_MESSAGES.reviewNotFound);
      }
      // A review an operator kept after a report is another text once edited: its reports open
      // again, so it is back in the Reviews queue (its reporters cannot report it twice).
      await tx
        .update(reviewReports)
        .set({ resolvedAt: null, resolution: null })
        .where(and(eq(reviewReports.reviewId, updated.id), eq(reviewReports.resolution, "kept")));
    } else {
      try {
        await tx.insert(reviews).values({
          gigId: gig.id,
          diggerId: purchase.diggerId,
          leadPurchaseId: purchase.id,
          rating,
          body,
        });
      } catch (error) {
        if (isUniqueViolation(error, "reviews_gig_digger_key"))
          throw new AppError("conflict", TRUST_MESSAGES.alreadyReviewed, {
            cause: error,
          });
        throw error;
      }
    }
    await emit(tx, { kind: "review.received", purchaseId: purchase.id, diggerUserId: purchase.userId, diggerId: purchase.diggerId, gigTitle: gig.title, rating, edited: edit });
  });
  return {
    success: edit ? TRUST_MESSAGES.reviewUpdated : TRUST_MESSAGES.reviewPosted,
  };
}

/** The Diggers dialog's review form: a new review, or (`edit`) a change to mine. */
function reviewOperation(edit: boolean) {
  return defineOperation({
    access: GIG_BUYERS_ACCESS,
    input: reviewFormSchema,
    run: ({ services, user, params, input: { diggerId, ...review } }) => saveReview(services, user.id, params.gigId ?? "", diggerId, review, edit),
  });
}

export const writeReview = reviewOperation(false);
export const editReview = reviewOperation(true);
