/**
 * The Reviews section of /digger/{id} (issue 20): the count, the average, the breakdown by star
 * and the reviews newest first, REVIEWS_PAGE_SIZE a page (keyset pagination). A reviewer is
 * shown as first name and last initial, made here on the server: their e-mail and full name
 * never leave it. And the digger's one public reply to a review on their own profile.
 *
 * A review of a purchase refunded in full is withdrawn (issue 30, finding 4): it leaves the
 * figures (the database's `purchase_fully_refunded`, migration 0027) and the public list; the
 * digger alone still sees it on their own profile, marked 'Withdrawn: the lead was refunded'.
 *
 * A review still blind in its hire's review window (issue 51, `published_at` null) is nobody's
 * here, the digger's own profile included: not counted, not listed, not replied to.
 */
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { isUuid } from "#core/ids.ts";
import { FORMER_CLIENT, type replySchema, reviewerName, REVIEWS_PAGE_SIZE, TRUST_MESSAGES, type PublicReview, type ReviewSummary } from "#core/reviews.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, hires, reviews, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, exactTimestamp, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";

/** The review's purchase was refunded in full (pending or paid): the review no longer counts. */
const withdrawn = sql<boolean>`purchase_fully_refunded(${reviews.leadPurchaseId})`;

export async function reviewSummary(db: Database, diggerId: string): Promise<ReviewSummary> {
  const rows = await db
    .select({ stars: reviews.rating, count: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.diggerId, diggerId), isNotNull(reviews.publishedAt), isNull(reviews.hiddenAt), sql`not ${withdrawn}`))
    .groupBy(reviews.rating);
  const byStars = new Map(rows.map((row) => [row.stars, Number(row.count)]));
  const count = rows.reduce((sum, row) => sum + Number(row.count), 0);
  const total = rows.reduce((sum, row) => sum + row.stars * Number(row.count), 0);
  return {
    count,
    average: count === 0 ? 0 : Math.round((total / count) * 100) / 100,
    breakdown: [5, 4, 3, 2, 1].map((stars) => ({ stars, count: byStars.get(stars) ?? 0 })),
  };
}

/** A page of the profile's reviews; `ownProfile` (the digger looking at their own) includes the withdrawn ones, marked. */
export async function reviewPage(db: Database, diggerId: string, cursorParam: string | null, ownProfile = false): Promise<Page<PublicReview>> {
  const after = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  const rows = await db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      body: reviews.body,
      reviewerFullName: users.name,
      reviewerDeleted: sql<boolean>`${users.deletedAt} is not null`,
      createdAt: exactTimestamp(reviews.createdAt),
      hired: sql<boolean>`${hires.gigId} is not null`,
      reply: reviews.reply,
      repliedAt: reviews.repliedAt,
      withdrawn,
    })
    .from(reviews)
    .innerJoin(gigs, eq(gigs.id, reviews.gigId))
    .innerJoin(users, eq(users.id, gigs.clientId))
    .leftJoin(hires, and(eq(hires.gigId, reviews.gigId), eq(hires.diggerId, reviews.diggerId)))
    .where(
      and(
        eq(reviews.diggerId, diggerId),
        isNotNull(reviews.publishedAt),
        // An operator hid it after a report (issue 22).
        isNull(reviews.hiddenAt),
        ownProfile ? undefined : sql`not ${withdrawn}`,
        after ? sql`(${reviews.createdAt}, ${reviews.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_PAGE_SIZE + 1);
  const page = toPage(rows, REVIEWS_PAGE_SIZE, (row) => [row.createdAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(({ reviewerFullName, reviewerDeleted, ...row }) => ({
      ...row,
      // A client who deleted their account is no longer named (the purge anonymises the row later).
      reviewer: reviewerDeleted ? FORMER_CLIENT : reviewerName(reviewerFullName),
      repliedAt: row.repliedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * The digger's reply (parsed by `replySchema`) to review `reviewId` (the form's, unchecked) on
 * their own profile `diggerId`: 403 for anyone else (or a review that is not on this profile),
 * 409 when it already has its one reply.
 */
export async function replyToReview(
  db: Database,
  userId: string,
  diggerId: string,
  reviewId: unknown,
  { reply }: z.output<typeof replySchema>,
): Promise<{ success: string }> {
  const [owner] = isUuid(diggerId)
    ? await db
        .select({ id: diggerProfiles.id })
        .from(diggerProfiles)
        .where(and(eq(diggerProfiles.id, diggerId), eq(diggerProfiles.userId, userId), isNull(diggerProfiles.hiddenAt)))
    : [];
  if (!owner || !isUuid(reviewId)) throw new AppError("forbidden", TRUST_MESSAGES.notYourReview);
  // A blind review is not on the profile yet: as if it were not theirs.
  const [review] = await db
    .select({ reply: reviews.reply })
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), eq(reviews.diggerId, owner.id), isNotNull(reviews.publishedAt)));
  if (!review) throw new AppError("forbidden", TRUST_MESSAGES.notYourReview);
  // Only while there is none: two replies sent at once leave the first.
  const [updated] = await db
    .update(reviews)
    .set({ reply, repliedAt: sql`now()` })
    .where(and(eq(reviews.id, reviewId), isNull(reviews.reply)))
    .returning({ id: reviews.id });
  if (!updated) throw new AppError("conflict", TRUST_MESSAGES.alreadyReplied);
  return { success: TRUST_MESSAGES.replyPosted };
}
