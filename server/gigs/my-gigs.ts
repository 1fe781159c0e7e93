/** A consumer's own gigs, and opening or closing one of them (only its owner may). */
import { and, desc, eq, sql } from "drizzle-orm";
import type { OwnGig } from "#core/gig-types.ts";
import { isUuid } from "#core/ids.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, toPage, type Page } from "../pagination.ts";


export async function listMyGigs(db: Database, consumerId: string, cursor: string | null, size = PAGE_SIZE): Promise<Page<OwnGig>> {
  const after = decodeCursor(cursor, 2);
  const rows = await db
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
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(
      and(
        eq(gigs.consumerId, consumerId),
        after && typeof after[0] === "string" && isUuid(after[1])
          ? sql`(${gigs.createdAt}, ${gigs.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(size + 1);
  return toPage(rows, size, (row) => [row.createdAt, row.id]);
}

/** Opens or closes a gig of `consumerId`; false when no such gig of theirs exists. */
export async function setGigStatus(db: Database, consumerId: string, gigId: string, status: "open" | "closed"): Promise<boolean> {
  if (!isUuid(gigId)) return false;
  const updated = await db
    .update(gigs)
    .set({ status })
    .where(and(eq(gigs.id, gigId), eq(gigs.consumerId, consumerId)))
    .returning({ id: gigs.id });
  return updated.length === 1;
}
