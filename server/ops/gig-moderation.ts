/**
 * The console's Gigs section (issue 22): every gig (hidden and closed ones too), newest first,
 * or those whose title, description or location contains the search text; Hide with a reason
 * and Restore, each in one transaction with its audit row and the owner told (bell + e-mail,
 * with the reason). A hidden gig leaves every public list and page (`notWithdrawn()`); its
 * buyers keep the contact they paid for. The form's POST empties the page cache.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { gigModerationSchema, OPS_GIG_MESSAGES, type OpsGig } from "#core/ops-moderation.ts";
import type { Database } from "../db/client.ts";
import { gigs, users } from "../db/schema.ts";
import { containsText, SEARCH_MAX_LENGTH } from "../db/search.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

export function gigSearchText(searchParams: URLSearchParams): string {
  return (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

/**
 * All gigs, newest first (gigs_newest: the primary order of the table's created_at), a page at a
 * time. The search reads search_text row by row: the trigram index covers listed gigs only,
 * and the console also looks for hidden and closed ones (an operator's search, not a public one).
 */
export async function searchGigs(db: Database, q: string, cursorParam: string | null): Promise<Page<OpsGig>> {
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

export const moderateGig = defineOperation({
  access: operator,
  input: gigModerationSchema,
  async run({ services, user: operator, input: input }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [gig] = await tx
        .select({ id: gigs.id, title: gigs.title, ownerId: gigs.clientId, hiddenAt: gigs.hiddenAt })
        .from(gigs)
        .where(eq(gigs.id, input.gigId))
        .for("no key update");
      if (!gig) throw new AppError("not_found", "Gig not found");
      refuseOwnRecord(operator.id, gig.ownerId);
      if (input.intent === "hide") {
        if (gig.hiddenAt) throw new AppError("conflict", OPS_GIG_MESSAGES.alreadyHidden);
        await tx.update(gigs).set({ hiddenAt: sql`now()`, hiddenReason: input.reason }).where(eq(gigs.id, gig.id));
        await services.emit(tx, { kind: "gig.hidden", operatorId: operator.id, gigId: gig.id, gigTitle: gig.title, ownerId: gig.ownerId, reason: input.reason });
        return { success: OPS_GIG_MESSAGES.hidden };
      }
      if (!gig.hiddenAt) throw new AppError("conflict", OPS_GIG_MESSAGES.notHidden);
      await tx.update(gigs).set({ hiddenAt: null, hiddenReason: null }).where(eq(gigs.id, gig.id));
      await services.emit(tx, { kind: "gig.restored", operatorId: operator.id, gigId: gig.id, gigTitle: gig.title, ownerId: gig.ownerId });
      return { success: OPS_GIG_MESSAGES.restored };
    });
  },
});

/** The Gigs section: the search and a page of its gigs. */
export const gigsPage = defineOperation({
  access: operator,
  async run({ services, url }) {
    const q = gigSearchText(url.searchParams);
    return { q, page: await searchGigs(services.db, q, url.searchParams.get("cursor")) };
  },
});
