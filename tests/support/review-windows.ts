/**
 * Two-way reviews (issue 51) in tests: a hire's review window read and moved in time, and the
 * digger's review of the client written as its operation writes it (the window's protocol,
 * server/reviews/review-window.ts) or straight into the table, for tests of the client's side.
 */
import { and, eq, sql } from "drizzle-orm";
import { clientReviews, reviewWindows } from "../../server/db/schema.ts";
import { lockedWindow, settleWindow, windowParties } from "../../server/reviews/review-window.ts";
import type { TestApp } from "./app.ts";

export interface Pair {
  gigId: string;
  diggerId: string;
}

/** The window of (gig, digger), or undefined. */
export async function windowOf(app: TestApp, { gigId, diggerId }: Pair) {
  const [window] = await app.database.db
    .select()
    .from(reviewWindows)
    .where(and(eq(reviewWindows.gigId, gigId), eq(reviewWindows.diggerId, diggerId)));
  return window;
}

/** Moves the window's opening and end `days` back: the time it would have after `days` days. */
export async function moveWindowBack(app: TestApp, { gigId, diggerId }: Pair, days: number): Promise<void> {
  await app.database.db
    .update(reviewWindows)
    .set({ openedAt: sql`${reviewWindows.openedAt} - make_interval(days => ${days}::int)`, endsAt: sql`${reviewWindows.endsAt} - make_interval(days => ${days}::int)` })
    .where(and(eq(reviewWindows.gigId, gigId), eq(reviewWindows.diggerId, diggerId)));
}

export interface DiggerReview extends Pair {
  clientId: string;
  leadPurchaseId: string;
  rating: number;
  body: string;
}

/** The digger's review of the client as a row: unpublished unless `publishedAt` says otherwise; nothing settled, nobody told. */
export async function insertClientReview(app: TestApp, review: DiggerReview, publishedAt: Date | null = null) {
  const [row] = await app.database.db
    .insert(clientReviews)
    .values({ ...review, publishedAt })
    .returning();
  return row!;
}

/**
 * The digger's review of the client written as the window's protocol says (decision 0077): the
 * window taken first, the review unpublished, then settled (both published at once when the
 * client's is there, else the client told). Answers what the settlement did.
 */
export async function diggerReviewsInWindow(app: TestApp, review: DiggerReview): Promise<"published" | "blind"> {
  return app.database.db.transaction(async (tx) => {
    const window = await lockedWindow(tx, app.services.emit, review.gigId, review.diggerId);
    if (!window || window.publishedAt !== null) throw new Error("diggerReviewsInWindow: no blind window");
    await tx.insert(clientReviews).values({ ...review, publishedAt: null });
    const parties = await windowParties(tx, review.gigId, review.diggerId);
    return settleWindow(tx, app.services.emit, parties!, "digger", window.endsAt);
  });
}
