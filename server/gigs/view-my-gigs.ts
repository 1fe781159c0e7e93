/**
 * My Gigs: a client's own gigs, a page at a time, whether they are published yet, whom they
 * hired, whether their phones are verified, and their next booked visit (issue 50).
 */
import { and, asc, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { GigHire, OwnGig } from "#core/gig-types.ts";
import { partyName } from "#core/messages.ts";
import { phoneStatus } from "#core/phone-verification.ts";
import { VISIT_WINDOWS, visitBookedWithLine } from "#core/visits.ts";
import { hasCompletedPurchase } from "../leads/spots.ts";
import type { Database } from "../db/client.ts";
import { placeholder, preparedQuery } from "../db/prepared.ts";
import { categories, diggerProfiles, gigs, hires, leadPurchases, quotes, threads, users, visits } from "../db/schema.ts";
import { defineOperation } from "../operation.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import { MY_GIGS } from "./access.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";

/**
 * The diggers hired for each of `gigIds` (issue 47: 'Hired: {handle}' with Message), first hired
 * first, with the thread of the purchase the hire rests on (every completed purchase has one).
 */
const hireRows = preparedQuery("my_gigs_hires", (db) =>
  db
    .select({ gigId: hires.gigId, handle: diggerProfiles.handle, threadId: threads.id })
    .from(hires)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, hires.diggerId))
    .leftJoin(leadPurchases, and(eq(leadPurchases.gigId, hires.gigId), eq(leadPurchases.diggerId, hires.diggerId), eq(leadPurchases.status, "completed")))
    .leftJoin(threads, eq(threads.purchaseId, leadPurchases.id))
    .where(sql`${hires.gigId} = any(${placeholder("gigIds")}::uuid[])`)
    .orderBy(asc(hires.createdAt), asc(diggerProfiles.handle)),
);

async function hiresOf(db: Database, gigIds: string[]): Promise<Map<string, GigHire[]>> {
  const byGig = new Map<string, GigHire[]>();
  if (gigIds.length === 0) return byGig;
  const rows = await hireRows(db, undefined, { gigIds });
  for (const row of rows) byGig.set(row.gigId, [...(byGig.get(row.gigId) ?? []), { handle: row.handle, threadId: row.threadId }]);
  return byGig;
}

/**
 * The soonest visit of each of `gigIds`' threads, booked and not yet over (issue 50), as its card
 * says it with the digger's handle, in one query: the client's visits by their index
 * (visits_client_idx), from the longest window back, each gig's first.
 */
const nextVisitRows = preparedQuery("my_gigs_next_visits", (db) =>
  db
    .selectDistinctOn([leadPurchases.gigId], {
      gigId: leadPurchases.gigId,
      startsAt: exactTimestamp(visits.startsAt),
      windowMinutes: visits.windowMinutes,
      handle: diggerProfiles.handle,
      diggerDeleted: sql<boolean>`${users.deletedAt} is not null`,
    })
    .from(visits)
    .innerJoin(threads, eq(threads.id, visits.threadId))
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .innerJoin(users, eq(users.id, visits.diggerUserId))
    .where(
      and(
        eq(visits.clientId, placeholder("clientId")),
        ne(visits.diggerUserId, placeholder("clientId")),
        eq(visits.status, "booked"),
        gt(visits.startsAt, sql`now() - make_interval(mins => ${Math.max(...VISIT_WINDOWS)})`),
        gt(visits.endsAt, sql`now()`),
        sql`${leadPurchases.gigId} = any(${placeholder("gigIds")}::uuid[])`,
      ),
    )
    .orderBy(leadPurchases.gigId, asc(visits.startsAt), asc(visits.id)),
);

async function nextVisitsOf(db: Database, clientId: string, gigIds: string[], time: ReaderTime): Promise<Map<string, string>> {
  const byGig = new Map<string, string>();
  if (gigIds.length === 0) return byGig;
  const rows = await nextVisitRows(db, undefined, { clientId, gigIds });
  for (const row of rows) {
    const handle = partyName({ role: "digger", deleted: row.diggerDeleted, handle: row.handle, fullName: null });
    byGig.set(row.gigId, visitBookedWithLine(time.visitWindow(row.startsAt, row.windowMinutes), handle));
  }
  return byGig;
}

const myGigRows = preparedQuery("my_gigs", (db, shape: { cursor: boolean }) =>
  db
    .select({
      id: gigs.id,
      title: gigs.title,
      description: gigs.description,
      status: gigs.status,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      categoryName: categories.name,
      createdAt: exactTimestamp(gigs.createdAt),
      purchaseCount: gigs.purchaseCount,
      filled: sql<boolean>`${gigs.filledAt} is not null`,
      published: gigs.published,
      hired: gigs.hired,
      openForMore: gigs.openForMore,
      hiddenReason: gigs.hiddenReason,
      deletable: sql<boolean>`not ${hasCompletedPurchase(gigs.id)}`.mapWith(Boolean),
      // Compare Quotes ({n}) (issue 33): quotes open and not past their end.
      openQuotes: sql<number>`(select count(*)::int from ${quotes} where ${quotes.gigId} = ${gigs.id} and ${quotes.status} = 'open' and ${quotes.expiresAt} > now())`.mapWith(Number),
      hasPhone: sql<boolean>`${gigs.contactPhone} is not null`.mapWith(Boolean),
      phoneVerifiedAt: gigs.phoneVerifiedAt,
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(
      and(
        eq(gigs.clientId, placeholder("clientId")),
        isNull(gigs.deletedAt),
        shape.cursor ? sql`(${gigs.createdAt}, ${gigs.id}) < (${placeholder("afterAt")}::timestamptz, ${placeholder("afterId")}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(placeholder("limit")),
);

async function listMyGigs(db: Database, clientId: string, cursor: string | null, time: ReaderTime, verificationOn: boolean, size = PAGE_SIZE): Promise<Page<OwnGig>> {
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const rows = await myGigRows(db, { cursor: after !== null }, { clientId, afterAt: after?.[0], afterId: after?.[1], limit: size + 1 });
  const page = toPage(rows, size, (row) => [row.createdAt, row.id]);
  const [hired, visitLines] = await Promise.all([
    hiresOf(db, page.items.filter((gig) => gig.hired).map((gig) => gig.id)),
    nextVisitsOf(db, clientId, page.items.map((gig) => gig.id), time),
  ]);
  return {
    nextCursor: page.nextCursor,
    // Each field named, not `{ ...gig, posted }` (decision 0066: a slow copy, and a new hidden class, a card).
    items: page.items.map(
      (gig): OwnGig => ({
        id: gig.id,
        title: gig.title,
        description: gig.description,
        status: gig.status,
        budgetMinCents: gig.budgetMinCents,
        budgetMaxCents: gig.budgetMaxCents,
        categoryName: gig.categoryName,
        createdAt: gig.createdAt,
        purchaseCount: gig.purchaseCount,
        filled: gig.filled,
        published: gig.published,
        hired: gig.hired,
        openForMore: gig.openForMore,
        hiddenReason: gig.hiddenReason,
        deletable: gig.deletable,
        openQuotes: gig.openQuotes,
        posted: `Posted ${time.ago(gig.createdAt)}`,
        hires: hired.get(gig.id) ?? [],
        visitBooked: visitLines.get(gig.id) ?? null,
        phoneStatus: phoneStatus(verificationOn, gig.hasPhone, gig.phoneVerifiedAt),
      }),
    ),
  };
}

/**
 * /my-gigs: a page of the signed-in user's gigs (from `?cursor=`), each saying whether it is
 * published yet, and the address the confirmation link went to ('Almost done: ...', issue 47).
 */
export const myGigs = defineOperation({
  access: MY_GIGS,
  async run({ services: { db, config }, user, url }) {
    const page = await listMyGigs(db, user.id, url.searchParams.get("cursor"), readerTime(user.timeZone, config), phoneVerificationOn(config));
    return { page, email: user.email };
  },
});
