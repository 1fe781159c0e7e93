/**
 * The digger's review of the client who hired them (issue 51, docs/decisions/0077-two-way-reviews.md):
 * the form's state for one of the digger's leads (`clientReviewForm`, GET /my-leads/{purchaseId}/review)
 * and writing or editing it (`writeClientReview`, POST). Only the digger who bought the lead (403
 * for anyone else, 404 for an id no completed purchase has), only inside the hire's review window
 * (review-window.ts), one per (gig, digger) (client_reviews_gig_digger_key). A blind window keeps
 * the review from the client until both have written or the window ends; a published one shows it
 * at once; a published review is never changed. The client's review of the digger is never read
 * here: it is blind to the digger.
 */
import { and, eq, sql } from "drizzle-orm";
import { firstNameOrHandle } from "#core/messages.ts";
import { clientReviewSchema, TRUST_MESSAGES } from "#core/reviews.ts";
import { TWO_WAY_TEXTS, waitingForOtherText, type ClientReviewForm } from "#core/two-way-reviews.ts";
import { isUuid } from "#core/ids.ts";
import type { Database } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { clientReviews, diggerProfiles, gigs, leadPurchases, reviewWindows } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { digger } from "../guards.ts";
import { clientUser } from "../leads/purchase-parties.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { fullyRefunded } from "./gig-buyers.ts";
import { lockedWindow, settleWindow, windowParties } from "./review-window.ts";

/**
 * Who may open the form and write: a signed-in digger (a visitor signs in as on /my-leads). A
 * client, or a digger without a profile, is refused where they stand (403, no redirect: the
 * dialog's fetcher shows the message); whose lead it is, the operations check.
 */
const CLIENT_REVIEW_ACCESS = digger({
  signedOut: { message: "Please sign in to view your leads", redirectTo: "/auth?type=digger&redirect=/my-leads" },
  userType: { type: "digger", message: TWO_WAY_TEXTS.notYourLead },
  diggerProfile: { message: TWO_WAY_TEXTS.notYourLead },
});

/**
 * Completed purchase `purchaseId` of digger `diggerId`, with its gig, its client, its review
 * window and the digger's own review of the client, in one query (the window by its key, the
 * review by client_reviews_gig_digger_key). 404 for a malformed or unknown id (or a purchase not
 * completed: no lead), 403 for another digger's.
 */
async function leadOf(db: Database, diggerId: string, purchaseId: string | undefined) {
  if (!isUuid(purchaseId)) throw new AppError("not_found", TWO_WAY_TEXTS.notFound);
  const [row] = await db
    .select({
      id: leadPurchases.id,
      diggerId: leadPurchases.diggerId,
      completed: sql<boolean>`${leadPurchases.status} = 'completed'`,
      refunded: fullyRefunded,
      gigId: gigs.id,
      gigTitle: gigs.title,
      clientId: gigs.clientId,
      clientName: clientUser.name,
      clientDeleted: sql<boolean>`${clientUser.deletedAt} is not null`,
      diggerUserId: diggerProfiles.userId,
      handle: diggerProfiles.handle,
      windowEndsAt: reviewWindows.endsAt,
      windowPublishedAt: reviewWindows.publishedAt,
      windowClosed: sql<boolean>`${reviewWindows.closedAt} is not null`,
      review: {
        rating: clientReviews.rating,
        body: clientReviews.body,
        asDescribed: clientReviews.asDescribed,
        easyToReach: clientReviews.easyToReach,
        paidAsAgreed: clientReviews.paidAsAgreed,
      },
      reviewPublishedAt: clientReviews.publishedAt,
    })
    .from(leadPurchases)
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(clientUser, eq(clientUser.id, gigs.clientId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .leftJoin(reviewWindows, and(eq(reviewWindows.gigId, leadPurchases.gigId), eq(reviewWindows.diggerId, leadPurchases.diggerId)))
    .leftJoin(clientReviews, and(eq(clientReviews.gigId, leadPurchases.gigId), eq(clientReviews.diggerId, leadPurchases.diggerId)))
    .where(eq(leadPurchases.id, purchaseId));
  if (!row || !row.completed) throw new AppError("not_found", TWO_WAY_TEXTS.notFound);
  if (row.diggerId !== diggerId) throw new AppError("forbidden", TWO_WAY_TEXTS.notYourLead);
  const clientFirstName = firstNameOrHandle({ role: "client", deleted: row.clientDeleted, handle: null, fullName: row.clientName });
  return { ...row, clientFirstName };
}

/** The form of the digger's review of the client of their lead `params.purchaseId`. */
export const clientReviewForm = defineOperation({
  access: CLIENT_REVIEW_ACCESS,
  async run({ services: { db, config }, user, diggerId, params }): Promise<ClientReviewForm> {
    const lead = await leadOf(db, diggerId, params.purchaseId);
    const time = readerTime(user.timeZone, config);
    const written = lead.review?.rating != null;
    const ownPublished = written && lead.reviewPublishedAt !== null;
    const windowOpen = lead.windowEndsAt !== null && lead.windowEndsAt > time.now && !lead.windowClosed;
    // A review not yet shown is in a blind window (removing the hire discards both with it).
    const state = lead.refunded ? "closed" : ownPublished ? "published" : written || windowOpen ? "open" : "closed";
    return {
      purchaseId: lead.id,
      gigTitle: lead.gigTitle,
      clientFirstName: lead.clientFirstName,
      state,
      closedText: state !== "closed" ? null : lead.refunded ? TWO_WAY_TEXTS.refunded : TWO_WAY_TEXTS.noWindow,
      review: written && lead.review ? { ...lead.review } : null,
      waitingText: written && !ownPublished && lead.windowEndsAt && !lead.refunded ? waitingForOtherText(lead.clientFirstName, time.date(lead.windowEndsAt)) : null,
    };
  },
});

/**
 * Submit Review: the digger's review of the client of lead `params.purchaseId`, new or edited,
 * by the window's protocol (review-window.ts): the window's row taken first, then a new review
 * is blind in a blind window (and settles it: both written publish both, else the client hears
 * once), shown at once in a published one; a review not yet shown may be edited, a shown one not.
 */
export const writeClientReview = defineOperation({
  access: CLIENT_REVIEW_ACCESS,
  input: clientReviewSchema,
  async run({ services: { db, emit }, diggerId, params, input }): Promise<{ success: string }> {
    const lead = await leadOf(db, diggerId, params.purchaseId);
    if (lead.refunded) throw new AppError("conflict", TWO_WAY_TEXTS.refunded);
    const values = { rating: input.rating, body: input.body, asDescribed: input.asDescribed, easyToReach: input.easyToReach, paidAsAgreed: input.paidAsAgreed };
    return db.transaction(async (tx) => {
      const window = await lockedWindow(tx, emit, lead.gigId, diggerId);
      const [existing] = await tx
        .select({ id: clientReviews.id, publishedAt: clientReviews.publishedAt })
        .from(clientReviews)
        .where(and(eq(clientReviews.gigId, lead.gigId), eq(clientReviews.diggerId, diggerId)));
      if (existing) {
        if (existing.publishedAt !== null) throw new AppError("conflict", TWO_WAY_TEXTS.locked);
        // Not yet shown: the writer may change it; the client was told once already.
        await tx.update(clientReviews).set(values).where(eq(clientReviews.id, existing.id));
        return { success: TWO_WAY_TEXTS.updated };
      }
      if (!window?.open) throw new AppError("conflict", TWO_WAY_TEXTS.noWindow);
      const blind = window.publishedAt === null;
      try {
        await tx.insert(clientReviews).values({
          gigId: lead.gigId,
          diggerId,
          leadPurchaseId: lead.id,
          clientId: lead.clientId,
          ...values,
          // A published window (a hire from before two-way reviews) shows a new review at once.
          publishedAt: blind ? null : sql`now()`,
        });
      } catch (error) {
        // Another request wrote it first (the window's lock makes this all but impossible).
        if (isUniqueViolation(error, "client_reviews_gig_digger_key")) throw new AppError("conflict", TWO_WAY_TEXTS.alreadyReviewed, { cause: error });
        throw error;
      }
      // A published window (a hire from before two-way reviews, or its 14 days over): shown as it is written.
      if (!blind) return { success: TRUST_MESSAGES.reviewPosted };
      const parties = await windowParties(tx, lead.gigId, diggerId);
      if (!parties) throw new AppError("not_found", TWO_WAY_TEXTS.notFound);
      const outcome = await settleWindow(tx, emit, parties, "digger", window.endsAt);
      return { success: outcome === "published" ? TWO_WAY_TEXTS.published : TWO_WAY_TEXTS.posted };
    });
  },
});
