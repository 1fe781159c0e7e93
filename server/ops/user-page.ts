/**
 * A user's page in the console (/ops/users/{id}): the account and its standing, and the
 * newest rows of each thing they did on the site (gigs, purchases, lead issues, reviews given
 * and received, both ways since issue 51), each list capped at USER_PAGE_LIST_CAP; the operator history (the audit rows
 * about them) is paginated by the page itself (auditLog). Each lead issue comes with what its
 * purchase's thread shows (issue 48), joined in the same query.
 */
import { desc, eq, or, sql } from "drizzle-orm";
import type { OpsUserAccount, OpsUserActivity } from "#core/ops-users.ts";
import type { Database } from "../db/client.ts";
import { clientReviews, diggerProfiles, gigs, leadIssues, leadPurchases, reviews, threads, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withEvidenceTexts } from "../leads/evidence-texts.ts";
import { purchaseSummary, withPurchaseParties } from "../leads/purchase-parties.ts";
import { evidenceColumns } from "../leads/thread-evidence.ts";
import { auditLog } from "./audit-log.ts";
import { refundRates } from "./refund-rate.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";

/** How many rows of each list the page shows, newest first. */
const USER_PAGE_LIST_CAP = 20;

/** Whether `value` could be a user id at all (Better Auth's text ids, the seed's uuids). */
export const plausibleUserId = (value: string) => /^[A-Za-z0-9_-]{1,100}$/.test(value);

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Capped lists are fetched one row longer, to say whether more exist. */
function capped<T>(rows: T[]): { items: T[]; more: boolean } {
  return { items: rows.slice(0, USER_PAGE_LIST_CAP), more: rows.length > USER_PAGE_LIST_CAP };
}

async function opsUserPage(db: Database, userId: string, time: ReaderTime): Promise<{ account: OpsUserAccount } & OpsUserActivity> {
  if (!plausibleUserId(userId)) throw new AppError("not_found", "Page not found");
  const [account] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      userType: users.userType,
      twoFactorEnabled: users.twoFactorEnabled,
      createdAt: users.createdAt,
      operatorSince: users.operatorSince,
      suspendedAt: users.suspendedAt,
      suspendedReason: users.suspendedReason,
      deletedAt: users.deletedAt,
      purgedAt: users.purgedAt,
      diggerId: diggerProfiles.id,
      handle: diggerProfiles.handle,
    })
    .from(users)
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, users.id))
    .where(eq(users.id, userId));
  if (!account) throw new AppError("not_found", "Page not found");
  const diggerId = account.diggerId;
  const limit = USER_PAGE_LIST_CAP + 1;
  const none = Promise.resolve([]);

  const [ownGigs, purchases, issues, reviewsGiven, reviewsReceived, rates, clientReviewsGiven, clientReviewsReceived] = await Promise.all([
    db
      .select({
        id: gigs.id,
        title: gigs.title,
        status: gigs.status,
        published: gigs.published,
        hidden: sql<boolean>`${gigs.hiddenAt} is not null`,
        purchaseCount: gigs.purchaseCount,
        maxDiggers: gigs.maxDiggers,
        createdAt: gigs.createdAt,
      })
      .from(gigs)
      .where(eq(gigs.clientId, userId))
      .orderBy(desc(gigs.createdAt))
      .limit(limit),
    diggerId === null
      ? none
      : withPurchaseParties(db.select(purchaseSummary).from(leadPurchases).$dynamic())
          .where(eq(leadPurchases.diggerId, diggerId))
          .orderBy(desc(leadPurchases.purchasedAt), desc(leadPurchases.createdAt))
          .limit(limit),
    // Issues they reported as a digger, and issues reported on their gigs as a client.
    withPurchaseParties(
      db
        .select({
          id: leadIssues.id,
          gigId: gigs.id,
          gigTitle: gigs.title,
          issueType: leadIssues.issueType,
          status: leadIssues.status,
          reportedByThem: diggerId === null ? sql<boolean>`false` : sql<boolean>`${leadIssues.diggerId} = ${diggerId}`,
          createdAt: leadIssues.createdAt,
          ...evidenceColumns,
        })
        .from(leadIssues)
        .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
        .leftJoin(threads, eq(threads.purchaseId, leadPurchases.id))
        .$dynamic(),
    )
      .where(diggerId === null ? eq(gigs.clientId, userId) : or(eq(gigs.clientId, userId), eq(leadIssues.diggerId, diggerId)))
      .orderBy(desc(leadIssues.createdAt))
      .limit(limit),
    db
      .select({ id: reviews.id, gigId: gigs.id, gigTitle: gigs.title, rating: reviews.rating, body: reviews.body, other: diggerProfiles.handle, createdAt: reviews.createdAt })
      .from(reviews)
      .innerJoin(gigs, eq(gigs.id, reviews.gigId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, reviews.diggerId))
      .where(eq(gigs.clientId, userId))
      .orderBy(desc(reviews.createdAt))
      .limit(limit),
    diggerId === null
      ? none
      : db
          .select({ id: reviews.id, gigId: gigs.id, gigTitle: gigs.title, rating: reviews.rating, body: reviews.body, other: users.name, createdAt: reviews.createdAt })
          .from(reviews)
          .innerJoin(gigs, eq(gigs.id, reviews.gigId))
          .innerJoin(users, eq(users.id, gigs.clientId))
          .where(eq(reviews.diggerId, diggerId))
          .orderBy(desc(reviews.createdAt))
          .limit(limit),
    refundRates(db, diggerId === null ? [] : [diggerId]),
    diggerId === null
      ? none
      : db
          .select({ ...clientReviewColumns, other: users.name })
          .from(clientReviews)
          .innerJoin(gigs, eq(gigs.id, clientReviews.gigId))
          .innerJoin(users, eq(users.id, clientReviews.clientId))
          .where(eq(clientReviews.diggerId, diggerId))
          .orderBy(desc(clientReviews.createdAt))
          .limit(limit),
    db
      .select({ ...clientReviewColumns, other: diggerProfiles.handle })
      .from(clientReviews)
      .innerJoin(gigs, eq(gigs.id, clientReviews.gigId))
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, clientReviews.diggerId))
      .where(eq(clientReviews.clientId, userId))
      .orderBy(desc(clientReviews.createdAt))
      .limit(limit),
  ]);

  // Dates as the operator reads them, in their zone (issue 47).
  const dated = <T extends { createdAt: Date }>(rows: T[]) =>
    capped(rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), createdAtText: time.date(row.createdAt) })));
  return {
    account: {
      ...account,
      joinedText: time.date(account.createdAt),
      operatorSinceText: account.operatorSince ? time.date(account.operatorSince) : null,
      standingText: standingText(account, time),
      createdAt: account.createdAt.toISOString(),
      operatorSince: iso(account.operatorSince),
      suspendedAt: iso(account.suspendedAt),
      deletedAt: iso(account.deletedAt),
      purgedAt: iso(account.purgedAt),
      refundRate: diggerId === null ? null : (rates.get(diggerId) ?? null),
    },
    gigs: dated(ownGigs),
    purchases: dated(purchases),
    issues: dated(issues.map((issue) => withEvidenceTexts(issue, time))),
    reviewsGiven: dated(reviewsGiven),
    reviewsReceived: dated(reviewsReceived),
    clientReviewsGiven: dated(clientReviewsGiven),
    clientReviewsReceived: dated(clientReviewsReceived),
  };
}

/** A digger's review of a client as the user page lists it, with why it is not shown (a blind or hidden one: operators see all). */
const clientReviewColumns = {
  id: clientReviews.id,
  gigId: gigs.id,
  gigTitle: gigs.title,
  rating: clientReviews.rating,
  body: clientReviews.body,
  createdAt: clientReviews.createdAt,
  note: sql<string | null>`case when ${clientReviews.hiddenAt} is not null then 'hidden by an operator' when ${clientReviews.publishedAt} is null then 'not yet published' end`,
};

/** The account's standing, its dates in the operator's zone. */
function standingText(account: { suspendedAt: Date | null; deletedAt: Date | null; purgedAt: Date | null }, time: ReaderTime): string {
  if (account.purgedAt) return `Deleted ${time.date(account.deletedAt!)}, personal data removed ${time.date(account.purgedAt)}`;
  if (account.deletedAt) return `Deleted ${time.date(account.deletedAt)} (personal data not yet removed)`;
  if (account.suspendedAt) return `Suspended ${time.dateTime(account.suspendedAt)}`;
  return "Active";
}

/** A user's page in the console: their account, standing and activity, and the operators' history about them. */
export const userPage = defineOperation({
  access: operator,
  async run({ services: { db, config }, user: operator, params, url }) {
    // Times in the operator's zone (issue 47).
    const time = readerTime(operator.timeZone, config);
    const user = await opsUserPage(db, params.userId ?? "", time);
    const log = await auditLog(db, { action: "", operator: "", user: "", subjectUserId: user.account.id }, url.searchParams.get("cursor"));
    const history = { ...log, items: log.items.map((entry) => ({ ...entry, createdAtText: time.dateTime(entry.createdAt) })) };
    return { user, history, self: operator.id === user.account.id };
  },
});
