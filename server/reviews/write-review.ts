/**
 * Leave a Review and edit it (issue 20; design.md section 7): only the gig's owner (403), only
 * for a digger with a completed purchase of the gig (409) that was not refunded in full (409),
 * once per gig and digger (the unique index reviews_gig_digger_key; 409). The digger's
 * average_rating and total_ratings are recomputed by the database in the same transaction
 * (migrations 0016, 0056: published reviews only). An edit sends a review an operator kept after
 * a report back to the operators (issue 22).
 *
 * Two-way reviews (issue 51, docs/decisions/0077-two-way-reviews.md), the client's side: the
 * window of the hire is taken first (review-window.ts `lockedWindow`).
 * - A blind window: the review is written unpublished and the digger hears only that the client
 *   reviewed them ("review.waiting", never the rating), or both reviews are published at once when
 *   the digger's is there ("reviews.published"); it may be edited until it is published, silently.
 * - A published window: the review is published as it is written; no review in it (nor one written
 *   before the hire, which became the client's side) can be edited any more.
 * - No window (a digger who was not hired): published as it is written, "review.received", and
 *   editable for REVIEW_EDIT_DAYS, as before.
 */
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { REVIEW_EDIT_DAYS, reviewFormSchema, type reviewSchema, TRUST_MESSAGES } from "#core/reviews.ts";
import { TWO_WAY_TEXTS } from "#core/two-way-reviews.ts";
import type { Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { reviewReports, reviews } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import type { Emit } from "../events/emit.ts";
import { defineOperation } from "../operation.ts";
import { completedPurchase, GIG_BUYERS_ACCESS, ownedGig } from "./gig-buyers.ts";
import { lockedWindow, settleWindow, windowParties } from "./review-window.ts";

type Services = Pick<AppServices, "db" | "emit">;
type Review = z.output<typeof reviewSchema>;
type Gig = Awaited<ReturnType<typeof ownedGig>>;
type Purchase = Awaited<ReturnType<typeof completedPurchase>>;
type Window = Awaited<ReturnType<typeof lockedWindow>>;

/** The review `{ rating, body }` (parsed by `reviewSchema`) of digger `diggerId` (the form's, unchecked). */
async function saveReview(services: Services, clientId: string, gigId: string, diggerId: unknown, review: Review, edit: boolean): Promise<{ success: string }> {
  const { db, emit } = services;
  const gig = await ownedGig(db, clientId, gigId);
  const purchase = await completedPurchase(db, gig.id, diggerId);
  if (purchase.refunded) throw new AppError("conflict", TRUST_MESSAGES.refunded);
  const success = await db.transaction(async (tx) => {
    const window = await lockedWindow(tx, emit, gig.id, purchase.diggerId);
    return edit ? editOwnReview(tx, emit, gig, purchase, window, review) : insertReview(tx, emit, gig, purchase, window, review);
  });
  return { success };
}

async function insertReview(tx: Transaction, emit: Emit, gig: Gig, purchase: Purchase, window: Window, { rating, body }: Review): Promise<string> {
  // A closed window (its hire removed) is no window: the non-hired path, published at once.
  const hire = window !== null && !window.closed ? window : null;
  // The 14 days are both sides': after them the client does not write, having perhaps read the digger's review.
  if (hire?.ended) throw new AppError("conflict", TWO_WAY_TEXTS.clientWindowOver);
  const blind = hire !== null && hire.publishedAt === null ? hire : null;
  try {
    await tx.insert(reviews).values({
      gigId: gig.id,
      diggerId: purchase.diggerId,
      leadPurchaseId: purchase.id,
      rating,
      body,
      // Outside a blind window, the column's default: published now.
      ...(blind ? { publishedAt: null } : {}),
    });
  } catch (error) {
    if (isUniqueViolation(error, "reviews_gig_digger_key")) throw new AppError("conflict", TRUST_MESSAGES.alreadyReviewed, { cause: error });
    throw error;
  }
  if (!blind) {
    await emit(tx, { kind: "review.received", purchaseId: purchase.id, diggerUserId: purchase.userId, diggerId: purchase.diggerId, gigTitle: gig.title, rating, edited: false });
    return TRUST_MESSAGES.reviewPosted;
  }
  const parties = await windowParties(tx, gig.id, purchase.diggerId);
  if (!parties) throw new AppError("not_found", "Gig not found");
  const outcome = await settleWindow(tx, emit, parties, "client", blind.endsAt);
  return outcome === "published" ? TWO_WAY_TEXTS.published : TWO_WAY_TEXTS.posted;
}

async function editOwnReview(tx: Transaction, emit: Emit, gig: Gig, purchase: Purchase, window: Window, { rating, body }: Review): Promise<string> {
  const [existing] = await tx
    .select({ id: reviews.id, publishedAt: reviews.publishedAt, editable: sql<boolean>`${reviews.createdAt} > now() - make_interval(days => ${REVIEW_EDIT_DAYS}::int)` })
    .from(reviews)
    .where(and(eq(reviews.gigId, gig.id), eq(reviews.diggerId, purchase.diggerId)))
    .for("update");
  if (!existing) throw new AppError("not_found", TRUST_MESSAGES.reviewNotFound);
  if (window && !window.closed) {
    // A hire's review: only until it is published (a review written before the hire is published already).
    if (existing.publishedAt !== null || window.publishedAt !== null) throw new AppError("conflict", TWO_WAY_TEXTS.locked);
  } else if (!existing.editable) {
    throw new AppError("conflict", TRUST_MESSAGES.editWindowClosed);
  }
  await tx.update(reviews).set({ rating, body }).where(eq(reviews.id, existing.id));
  // Blind: nobody else has read it, nobody hears of the change.
  if (existing.publishedAt === null) return TWO_WAY_TEXTS.updated;
  // A review an operator kept after a report is another text once edited: its reports open
  // again, so it is back in the Reviews queue (its reporters cannot report it twice).
  await tx
    .update(reviewReports)
    .set({ resolvedAt: null, resolution: null })
    .where(and(eq(reviewReports.reviewId, existing.id), eq(reviewReports.resolution, "kept")));
  await emit(tx, { kind: "review.received", purchaseId: purchase.id, diggerUserId: purchase.userId, diggerId: purchase.diggerId, gigTitle: gig.title, rating, edited: true });
  return TRUST_MESSAGES.reviewUpdated;
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
