/**
 * The Client reviews section (issue 51) of a gig page and of /account: a client's reviews from
 * diggers that are published (never a blind one), shown (not hidden by an operator) and not
 * withdrawn (no full refund of their purchase), newest first, CLIENT_REVIEWS_PAGE_SIZE a page.
 * Keyset pagination on (published_at, id) along the partial index
 * client_reviews_client_published_idx, which holds exactly the published, shown rows.
 *
 * A reviewer is their handle, linking their profile while it is shown; once their account is
 * deleted, 'Former digger' without a link (as profile-reviews.ts names a deleted client
 * 'Former client').
 */
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { displayHandle } from "#core/digger-display.ts";
import { CLIENT_REVIEWS_PAGE_SIZE, TWO_WAY_TEXTS, type PublicClientReview, type ShownClientReview } from "#core/two-way-reviews.ts";
import type { Database } from "../db/client.ts";
import { clientReviews, diggerProfiles, users } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import type { ReaderTime } from "../reader-time.ts";

/** The review's purchase was refunded in full (pending or paid): withdrawn from the list and the figures. */
const withdrawn = sql<boolean>`purchase_fully_refunded(${clientReviews.leadPurchaseId})`;

/** The conditions of a client's shown reviews (the figures' triggers count the same rows). */
export const shownClientReview = () => and(isNotNull(clientReviews.publishedAt), isNull(clientReviews.hiddenAt), sql`not ${withdrawn}`);

/** The page's query (one row more than a page), unexecuted: tests EXPLAIN it. */
export function clientReviewsQuery(db: Database, clientId: string, cursorParam: string | null) {
  const after = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  return db
    .select({
      id: clientReviews.id,
      rating: clientReviews.rating,
      body: clientReviews.body,
      handle: diggerProfiles.handle,
      profileId: diggerProfiles.id,
      profileShown: sql<boolean>`${diggerProfiles.hiddenAt} is null`,
      // No account row left counts as deleted too.
      diggerDeleted: sql<boolean>`${users.deletedAt} is not null or ${users.id} is null`,
      publishedAt: exactTimestamp(clientReviews.publishedAt),
      asDescribed: clientReviews.asDescribed,
      easyToReach: clientReviews.easyToReach,
      paidAsAgreed: clientReviews.paidAsAgreed,
    })
    .from(clientReviews)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, clientReviews.diggerId))
    .leftJoin(users, eq(users.id, diggerProfiles.userId))
    .where(
      and(
        eq(clientReviews.clientId, clientId),
        shownClientReview(),
        after ? sql`(${clientReviews.publishedAt}, ${clientReviews.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(clientReviews.publishedAt), desc(clientReviews.id))
    .limit(CLIENT_REVIEWS_PAGE_SIZE + 1);
}

/** A page of client `clientId`'s shown reviews from diggers, newest first. */
async function clientReviewPage(db: Database, clientId: string, cursorParam: string | null): Promise<Page<PublicClientReview>> {
  const rows = await clientReviewsQuery(db, clientId, cursorParam);
  const page = toPage(rows, CLIENT_REVIEWS_PAGE_SIZE, (row) => [row.publishedAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      id: row.id,
      rating: row.rating,
      body: row.body,
      diggerHandle: row.diggerDeleted ? TWO_WAY_TEXTS.formerDigger : displayHandle(row.handle),
      // A link only to a profile that opens: not once deleted, nor while hidden.
      diggerId: row.diggerDeleted || !row.profileShown ? null : row.profileId,
      publishedAt: row.publishedAt,
      answers: { asDescribed: row.asDescribed, easyToReach: row.easyToReach, paidAsAgreed: row.paidAsAgreed },
    })),
  };
}

/**
 * The section's data for one reader: a page of the client's reviews with their dates in the
 * reader's zone, and whether it is the first page. `reviewCount` (the record's figure, already
 * read with the page) spares the query when the client has no shown review.
 */
export async function clientReviewsSection(
  db: Database,
  clientId: string,
  cursorParam: string | null,
  time: ReaderTime,
  reviewCount: number,
): Promise<{ page: Page<ShownClientReview>; firstPage: boolean }> {
  const firstPage = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR) === null;
  const page = reviewCount === 0 ? { items: [], nextCursor: null } : await clientReviewPage(db, clientId, cursorParam);
  return {
    firstPage,
    page: {
      nextCursor: page.nextCursor,
      items: page.items.map((review) => ({ ...review, publishedAtText: time.date(review.publishedAt), publishedAtTitle: time.dateTime(review.publishedAt) })),
    },
  };
}
