/**
 * A hire's two-way review window (issue 51, docs/decisions/0077-two-way-reviews.md): opened with
 * the hire, blind until both sides have written or REVIEW_WINDOW_DAYS have passed, then both
 * reviews are published at once; removing the hire before that discards what was not published.
 * Every step takes the window's row first (FOR UPDATE), so two reviews written at once, or a
 * review and the end-of-window job, publish exactly once.
 *
 * The sides: the client's review of the digger (`reviews`, server/reviews/write-review.ts) and the
 * digger's review of the client (`client_reviews`, server/reviews/client-review.ts).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { displayHandle } from "#core/digger-display.ts";
import { REVIEW_WINDOW_DAYS } from "#core/two-way-reviews.ts";
import { queryRows, type Transaction } from "../db/client.ts";
import { clientReviews, diggerProfiles, gigs, leadPurchases, reviews, reviewWindows, users } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";

export type ReviewSide = "client" | "digger";

/**
 * The window of (gig, digger) as a writer reads it, taken FOR UPDATE; null when there is none.
 * A blind window whose end has passed (by the database's clock) is published here first (its job
 * may not have run yet): after the 14 days nobody writes into a blind window, edits or discards
 * what it hid. `open`: a review may be written in it now (not ended, its hire not removed).
 */
export async function lockedWindow(tx: Transaction, emit: Emit, gigId: string, diggerId: string) {
  const [window] = await tx
    .select({
      endsAt: reviewWindows.endsAt,
      publishedAt: reviewWindows.publishedAt,
      closed: sql<boolean>`${reviewWindows.closedAt} is not null`,
      ended: sql<boolean>`${reviewWindows.endsAt} <= now()`,
    })
    .from(reviewWindows)
    .where(and(eq(reviewWindows.gigId, gigId), eq(reviewWindows.diggerId, diggerId)))
    .for("update");
  if (!window) return null;
  const { ended, closed, endsAt } = window;
  let { publishedAt } = window;
  if (ended && publishedAt === null) {
    await publishEndedWindow(tx, emit, gigId, diggerId);
    publishedAt = new Date();
  }
  return { endsAt, publishedAt, closed, ended, open: !ended && !closed };
}

/**
 * Publishes the blind window of (gig, digger), taken FOR UPDATE by the caller, at its end, and
 * tells both parties when a review was written in it (a window nobody reviewed in ends in
 * silence); false when it was not blind.
 */
export async function publishEndedWindow(tx: Transaction, emit: Emit, gigId: string, diggerId: string): Promise<boolean> {
  const written = await sidesWritten(tx, gigId, diggerId);
  if (!(await publishWindow(tx, gigId, diggerId))) return false;
  if (written.client || written.digger) {
    const parties = await windowParties(tx, gigId, diggerId);
    if (parties) await emit(tx, { kind: "reviews.published", ...parties });
  }
  return true;
}

/**
 * Opens the window of a hire just recorded (reviews/hires.ts `recordHire`) on its completed
 * purchase. A window closed by the removal of an earlier hire of the pair opens again with its
 * first end (no fresh 14 days by re-hiring); a published one stays as it is. A new window's event
 * starts its end-of-window jobs (a reopened one's are still waiting).
 */
export async function openReviewWindow(tx: Transaction, emit: Emit, gigId: string, diggerId: string): Promise<void> {
  const [window] = await queryRows<{ endsAt: Date; fresh: boolean }>(
    tx,
    sql`insert into ${reviewWindows} (gig_id, digger_id, lead_purchase_id, opened_at, ends_at)
        select ${leadPurchases.gigId}, ${leadPurchases.diggerId}, ${leadPurchases.id}, now(), now() + make_interval(days => ${REVIEW_WINDOW_DAYS}::int)
        from ${leadPurchases}
        where ${leadPurchases.gigId} = ${gigId} and ${leadPurchases.diggerId} = ${diggerId} and ${leadPurchases.status} = 'completed'
        limit 1
        on conflict (gig_id, digger_id) do update set closed_at = null where ${reviewWindows.closedAt} is not null
        returning ends_at as "endsAt", (xmax = 0) as fresh`,
  );
  if (window?.fresh) await emit(tx, { kind: "review.window-opened", gigId, diggerId, endsAt: new Date(window.endsAt).toISOString() });
}

/**
 * Closes the window of a hire being removed: a blind window keeps its row, closed (`closed_at`),
 * and the reviews it hid are discarded (issue 51: 'reviews not yet published are discarded'); the
 * digger hears that theirs was. A published window stays with its reviews.
 */
export async function closeReviewWindow(tx: Transaction, emit: Emit, gigId: string, diggerId: string): Promise<void> {
  const window = await lockedWindow(tx, emit, gigId, diggerId);
  if (!window || window.publishedAt !== null || window.closed) return;
  await tx.delete(reviews).where(and(eq(reviews.gigId, gigId), eq(reviews.diggerId, diggerId), isNull(reviews.publishedAt)));
  const discarded = await tx
    .delete(clientReviews)
    .where(and(eq(clientReviews.gigId, gigId), eq(clientReviews.diggerId, diggerId), isNull(clientReviews.publishedAt)))
    .returning({ id: clientReviews.id });
  await tx.update(reviewWindows).set({ closedAt: sql`now()` }).where(and(eq(reviewWindows.gigId, gigId), eq(reviewWindows.diggerId, diggerId)));
  if (discarded.length > 0) {
    const parties = await windowParties(tx, gigId, diggerId);
    if (parties) await emit(tx, { kind: "review.discarded", gigId, diggerId, gigTitle: parties.gigTitle, diggerUserId: parties.diggerUserId, clientName: parties.clientName });
  }
}

/** Publishes a blind window and both its reviews at once (the second review, or the end-of-window job); false when it was not blind. */
async function publishWindow(tx: Transaction, gigId: string, diggerId: string): Promise<boolean> {
  const [published] = await tx
    .update(reviewWindows)
    .set({ publishedAt: sql`now()` })
    .where(and(eq(reviewWindows.gigId, gigId), eq(reviewWindows.diggerId, diggerId), isNull(reviewWindows.publishedAt)))
    .returning({ gigId: reviewWindows.gigId });
  if (!published) return false;
  await tx
    .update(reviews)
    .set({ publishedAt: sql`now()` })
    .where(and(eq(reviews.gigId, gigId), eq(reviews.diggerId, diggerId), isNull(reviews.publishedAt)));
  await tx
    .update(clientReviews)
    .set({ publishedAt: sql`now()` })
    .where(and(eq(clientReviews.gigId, gigId), eq(clientReviews.diggerId, diggerId), isNull(clientReviews.publishedAt)));
  return true;
}

/** Whether each side of (gig, digger) has written its review (published or not). */
export async function sidesWritten(tx: Transaction, gigId: string, diggerId: string): Promise<Record<ReviewSide, boolean>> {
  const [row] = await queryRows<{ client: boolean; digger: boolean }>(
    tx,
    sql`select exists (select 1 from ${reviews} where ${reviews.gigId} = ${gigId} and ${reviews.diggerId} = ${diggerId}) as client,
               exists (select 1 from ${clientReviews} where ${clientReviews.gigId} = ${gigId} and ${clientReviews.diggerId} = ${diggerId}) as digger`,
  );
  return { client: Boolean(row?.client), digger: Boolean(row?.digger) };
}

/** Who a review of (gig, digger) is between, for the notices. */
export interface WindowParties {
  gigId: string;
  diggerId: string;
  gigTitle: string;
  clientUserId: string;
  diggerUserId: string;
  /** The client as the digger reads them ('Maria'), and the digger as the client does (their handle). */
  clientName: string;
  diggerName: string;
}

/**
 * After side `side` wrote its first review of a blind window (taken with `lockedWindow` before the
 * write, in the same transaction): both sides written publishes both at once and tells both;
 * otherwise the other side hears once, '{name} reviewed you. Write yours by {date} to see it.'
 */
export async function settleWindow(tx: Transaction, emit: Emit, parties: WindowParties, side: ReviewSide, endsAt: Date): Promise<"published" | "blind"> {
  const written = await sidesWritten(tx, parties.gigId, parties.diggerId);
  if (written.client && written.digger) {
    if (await publishWindow(tx, parties.gigId, parties.diggerId)) await emit(tx, { kind: "reviews.published", ...parties });
    return "published";
  }
  const toClient = side === "digger";
  await emit(tx, {
    kind: "review.waiting",
    gigId: parties.gigId,
    diggerId: parties.diggerId,
    gigTitle: parties.gigTitle,
    recipientUserId: toClient ? parties.clientUserId : parties.diggerUserId,
    recipientSide: toClient ? "client" : "digger",
    writerName: toClient ? parties.diggerName : parties.clientName,
    endsAt: endsAt.toISOString(),
    reminder: false,
  });
  return "blind";
}

/**
 * The parties of (gig, digger) for the notices (a review written, the end-of-window jobs): the
 * client by first name, the digger by handle, as each is shown to the other. Null when the gig or
 * the digger's profile is gone.
 */
export async function windowParties(tx: Transaction, gigId: string, diggerId: string): Promise<WindowParties | null> {
  const [row] = await tx
    .select({
      gigTitle: gigs.title,
      clientUserId: gigs.clientId,
      clientFullName: users.name,
      clientDeleted: sql<boolean>`${users.deletedAt} is not null`,
      diggerUserId: diggerProfiles.userId,
      handle: diggerProfiles.handle,
    })
    .from(gigs)
    .innerJoin(users, eq(users.id, gigs.clientId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, diggerId))
    .where(eq(gigs.id, gigId));
  if (!row) return null;
  const firstName = row.clientDeleted ? "" : ((row.clientFullName ?? "").trim().split(/\s+/)[0] ?? "");
  return {
    gigId,
    diggerId,
    gigTitle: row.gigTitle,
    clientUserId: row.clientUserId,
    diggerUserId: row.diggerUserId,
    clientName: firstName || "The client",
    diggerName: displayHandle(row.handle),
  };
}
