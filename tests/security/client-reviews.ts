/**
 * The digger's review of a lead's client (issue 51), for the authorization matrix and the
 * bad-input tests: a new purchase of the owning digger whose hire opened a review window, written
 * as recordHire writes the window (the row alone: the review's own tests,
 * integration/client-reviews.test.ts, go through Mark as Hired and accepted quotes).
 */
import { clientReviews, reviewReports, reviewWindows } from "../../server/db/schema.ts";
import type { World } from "./world.ts";

/** A valid Submit Review of the digger's form. */
export const CLIENT_REVIEW_FORM = { rating: "4", body: "Clear brief, quick answers and paid on the day.", asDescribed: "yes", easyToReach: "", paidAsAgreed: "no" };

/**
 * A completed purchase by the owning digger of a new gig of the owning client, with a blind
 * review window ending in 14 days; `published`: the window and the digger's review of the client
 * already shown (an edit is refused).
 */
export async function freshReviewWindow(w: World, { published = false } = {}) {
  const db = w.app.database.db;
  const { gig, purchase } = await w.freshPurchase();
  const publishedAt = published ? new Date() : null;
  await db.insert(reviewWindows).values({ gigId: gig.id, diggerId: purchase.diggerId, leadPurchaseId: purchase.id, endsAt: new Date(Date.now() + 14 * 86_400_000), publishedAt });
  if (published) {
    await db.insert(clientReviews).values({ gigId: gig.id, diggerId: purchase.diggerId, leadPurchaseId: purchase.id, clientId: gig.clientId, rating: 5, body: "A published review of this client.", publishedAt });
  }
  return purchase;
}

/** One lead with a window for a whole file (a review saved by one request is edited by the next). */
let shared: ReturnType<typeof freshReviewWindow> | undefined;
export const sharedReviewWindow = (w: World) => (shared ??= freshReviewWindow(w));

/**
 * A published review by the owning digger of the owning client, on a new gig the digger bought
 * (the digger's form that writes it has its own tests); `reported`: with one open report (by the
 * other client).
 */
export async function freshClientReview(w: World, { reported = false } = {}) {
  const db = w.app.database.db;
  const { purchase } = await w.freshPurchase();
  const [review] = await db
    .insert(clientReviews)
    .values({ gigId: purchase.gigId, diggerId: w.users.owningDigger.diggerId, leadPurchaseId: purchase.id, clientId: w.users.owningClient.id, rating: 4, body: "Clear brief and paid on the day.", publishedAt: new Date() })
    .returning();
  if (reported) await db.insert(reviewReports).values({ clientReviewId: review!.id, reporterId: w.users.otherClient.id, reason: "This review is about another client." });
  return review!;
}
