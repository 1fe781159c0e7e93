/**
 * The console's Gigs section (issue 22): every gig (hidden and closed ones too), newest first,
 * or those whose title, description or location contains the search text. Hide / Restore is
 * moderate-gig.ts.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { OpsGig } from "#core/ops-moderation.ts";
import type { Database } from "../db/client.ts";
import { gigs, users } from "../db/schema.ts";
import { containsText, SEARCH_MAX_LENGTH } from "../db/search.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";

function gigSearchText(searchParams: URLSearchParams): string {
  return (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

/**
 * All gigs, newest first (gigs_newest: the primary order of the table's created_at), a page at a
 * time. The search reads search_text row by row: the trigram index covers listed gigs only,
 * and the console also looks for hidden and closed ones (an operator's search, not a public one).
 */
async function searchGigs(db: Database, q: string, cursorParam: string | null): Promise<Page<OpsGig>> {
  const conditions: SQL[] = [];
  if (q) conditions.push(containsText(gigs.searchText, q));
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  if (cursor) {
    conditions.push(sql`(${gigs.createdAt}, ${gigs.id}) < (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)`);
  }
  const rows = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      location: gigs.location,
      status: gigs.status,
      published: gigs.published,
      at: exactTimestamp(gigs.createdAt),
      createdAt: gigs.createdAt,
      ownerId: gigs.clientId,
      ownerEmail: users.email,
      ownerSuspended: gigs.ownerSuspended,
      hiddenAt: gigs.hiddenAt,
      hiddenReason: gigs.hiddenReason,
      purchaseCount: gigs.purchaseCount,
    })
    .from(gigs)
    .innerJoin(users, eq(users.id, gigs.clientId))
    .where(and(...conditions))
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(PAGE_SIZE + 1);
  const page = toPage(rows, PAGE_SIZE, (row) => [row.at, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(({ at: _at, ...row }) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      hiddenAt: row.hiddenAt?.toISOString() ?? null,
    })),
  };
}

/** The Gigs section: the search and a page of its gigs. */
export const gigsPage = defineOperation({
  access: operator,
  async run({ services, user, url }) {
    const q = gigSearchText(url.searchParams);
    const page = await searchGigs(services.db, q, url.searchParams.get("cursor"));
    // Days in the operator's zone (issue 47).
    const time = readerTime(user.timeZone, services.config);
    const items = page.items.map((gig) => ({ ...gig, createdAtText: time.date(gig.createdAt), hiddenAtText: gig.hiddenAt ? time.date(gig.hiddenAt) : null }));
    return { q, page: { ...page, items } };
  },
});
