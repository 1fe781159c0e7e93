/**
 * The Diggers dialog of /my-gigs (issue 20): the owner of a gig sees each digger with a
 * completed purchase of its lead, newest first, with whether they marked them hired and their
 * own review. Only the gig's owner: another user gets 403, an unknown gig 404, and nothing else.
 * A review in a hire's blind window (issue 51) comes with when it will be shown; the digger's
 * review of the client is never read here (it is theirs until published, and shown elsewhere).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { displayHandle } from "#core/digger-display.ts";
import { reviewEditable, TRUST_MESSAGES, type GigBuyer } from "#core/reviews.ts";
import { waitingForOtherText } from "#core/two-way-reviews.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, hires, leadPurchases, reviews, reviewWindows, threads, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { signedIn } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";

/** Who may open the dialog and act in it: the gig's owner, who must be signed in. */
export const GIG_BUYERS_ACCESS = signedIn({
  signedOut: { message: "Please sign in to view your gigs", redirectTo: "/auth?redirect=/my-gigs" },
});

/** At most this many rows: one per completed purchase, and a gig sells at most five. */
const BUYERS_LIMIT = 100;

/** Gig `gigId` when `clientId` owns it: 404 when there is no such gig, 403 when it is another's. */
export async function ownedGig(db: Database, clientId: string, gigId: string, lock = false) {
  if (!isUuid(gigId)) throw new AppError("not_found", "Gig not found");
  const query = db.select({ id: gigs.id, title: gigs.title, clientId: gigs.clientId }).from(gigs).where(eq(gigs.id, gigId));
  const [gig] = lock ? await query.for("share") : await query;
  if (!gig) throw new AppError("not_found", "Gig not found");
  if (gig.clientId !== clientId) throw new AppError("forbidden", TRUST_MESSAGES.notYourGig);
  return gig;
}

/**
 * Refunds of a purchase reach its whole price (pending or paid): the lead cannot be reviewed or
 * marked hired, and what was cannot count (the database's own rule, migration 0027).
 */
export const fullyRefunded = sql<boolean>`purchase_fully_refunded(${leadPurchases.id})`;

async function gigBuyers(db: Database, clientId: string, gigId: string, time: ReaderTime): Promise<{ buyers: GigBuyer[] }> {
  const gig = await ownedGig(db, clientId, gigId);
  const p = diggerProfiles;
  const rows = await db
    .select({
      diggerId: p.id,
      handle: p.handle,
      profileImageUrl: p.profileImageUrl,
      averageRating: p.averageRating,
      totalRatings: p.totalRatings,
      purchasedAt: leadPurchases.purchasedAt,
      hired: sql<boolean>`${hires.gigId} is not null`,
      refunded: fullyRefunded,
      reviewRating: reviews.rating,
      reviewBody: reviews.body,
      reviewedAt: reviews.createdAt,
      reviewPublishedAt: reviews.publishedAt,
      // The hire's review window (issue 51): its end, and whether it is in one at all.
      windowEndsAt: reviewWindows.endsAt,
      windowClosed: sql<boolean>`${reviewWindows.closedAt} is not null`,
      windowOver: sql<boolean>`${reviewWindows.endsAt} <= now()`,
      threadId: threads.id,
    })
    .from(leadPurchases)
    .innerJoin(p, eq(p.id, leadPurchases.diggerId))
    .leftJoin(hires, and(eq(hires.gigId, leadPurchases.gigId), eq(hires.diggerId, leadPurchases.diggerId)))
    .leftJoin(reviews, and(eq(reviews.gigId, leadPurchases.gigId), eq(reviews.diggerId, leadPurchases.diggerId)))
    .leftJoin(reviewWindows, and(eq(reviewWindows.gigId, leadPurchases.gigId), eq(reviewWindows.diggerId, leadPurchases.diggerId)))
    .leftJoin(threads, eq(threads.purchaseId, leadPurchases.id))
    .where(and(eq(leadPurchases.gigId, gig.id), eq(leadPurchases.status, "completed")))
    .orderBy(desc(leadPurchases.purchasedAt), desc(leadPurchases.id))
    .limit(BUYERS_LIMIT);
  const now = new Date();
  return {
    buyers: rows.map((row) => {
      // In the hire's review window (a closed one, its hire removed, is no window: the non-hired path).
      const inWindow = row.windowEndsAt !== null && !row.windowClosed;
      return {
      diggerId: row.diggerId,
      handle: row.handle,
      profileImageUrl: row.profileImageUrl,
      averageRating: Number(row.averageRating),
      totalRatings: row.totalRatings,
      purchasedAt: row.purchasedAt!.toISOString(),
      purchasedAtText: time.date(row.purchasedAt!),
      hired: row.hired,
      // After the window's 14 days the client's side is over too (no reading the digger's review first, then writing).
      reviewable: !row.refunded && !(inWindow && row.windowOver),
      threadId: row.threadId,
      review:
        row.reviewRating !== null && row.reviewBody !== null && row.reviewedAt !== null
          ? {
              rating: row.reviewRating,
              body: row.reviewBody,
              createdAt: row.reviewedAt.toISOString(),
              published: row.reviewPublishedAt !== null,
              // In a window: until it is published (then never); else the edit days of decision 0022.
              editable: inWindow ? row.reviewPublishedAt === null : reviewEditable(row.reviewedAt, now),
              waitingText: row.reviewPublishedAt === null && inWindow && row.windowEndsAt !== null ? waitingForOtherText(displayHandle(row.handle), time.date(row.windowEndsAt)) : null,
            }
          : null,
      };
    }),
  };
}

/**
 * The completed purchase of gig `gigId` by digger `diggerId`, with the digger's account for the
 * e-mail; 409 when the digger never bought the lead.
 */
export async function completedPurchase(db: Database, gigId: string, diggerId: unknown) {
  if (!isUuid(diggerId)) throw new AppError("conflict", TRUST_MESSAGES.noPurchase);
  const [purchase] = await db
    .select({ id: leadPurchases.id, refunded: fullyRefunded, userId: users.id, email: users.email })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(eq(leadPurchases.gigId, gigId), eq(leadPurchases.diggerId, diggerId), eq(leadPurchases.status, "completed")));
  if (!purchase) throw new AppError("conflict", TRUST_MESSAGES.noPurchase);
  return { ...purchase, diggerId };
}

/** The Diggers dialog of /my-gigs: who bought the gig's lead. */
export const gigBuyersDialog = defineOperation({
  access: GIG_BUYERS_ACCESS,
  run: ({ services: { db, config }, user, params }) => gigBuyers(db, user.id, params.gigId ?? "", readerTime(user.timeZone, config)),
});
