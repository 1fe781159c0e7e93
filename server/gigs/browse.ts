/**
 * Browse Gigs: open gigs newest first, with search, category (a top-level category takes in
 * its sub-categories) and budget band, one keyset page at a time. Only public fields: no
 * client name or e-mail.
 */
import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { GigSummary } from "#core/gig-types.ts";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { BUDGET_BANDS, type BudgetBand } from "#core/budget-bands.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs } from "../db/schema.ts";
import { containsAny } from "../db/search.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, toPage, type Page } from "../pagination.ts";

export interface BrowseFilters {
  search: string;
  categoryId: string | null;
  budget: BudgetBand | null;
  cursor: string | null;
}


/** Filters from the address bar; anything malformed is ignored rather than an error. */
export function parseBrowseFilters(searchParams: URLSearchParams): BrowseFilters {
  const category = searchParams.get("category");
  const budget = searchParams.get("budget");
  return {
    search: (searchParams.get("q") ?? "").trim(),
    categoryId: category && isUuid(category) ? category : null,
    budget: BUDGET_BANDS.includes(budget as BudgetBand) ? (budget as BudgetBand) : null,
    cursor: searchParams.get("cursor"),
  };
}

/** The spec's bands (section 7), in cents. */
function budgetCondition(band: BudgetBand): SQL {
  switch (band) {
    case "under1k":
      return sql`${gigs.budgetMaxCents} <= 100000`;
    case "1k-5k":
      return sql`${gigs.budgetMinCents} >= 100000 and ${gigs.budgetMaxCents} <= 500000`;
    case "over5k":
      return sql`${gigs.budgetMinCents} >= 500000`;
  }
}

/** The browse query itself (one page and one row more), unexecuted: tests EXPLAIN it. */
export function browseGigsQuery(db: Database, filters: BrowseFilters, size = PAGE_SIZE) {
  const conditions: SQL[] = [eq(gigs.status, "open")];
  if (filters.search) conditions.push(sql`(${containsAny([gigs.title, gigs.description], filters.search)})`);
  if (filters.categoryId) {
    const inCategory = db
      .select({ id: categories.id })
      .from(categories)
      .where(or(eq(categories.id, filters.categoryId), eq(categories.parentCategoryId, filters.categoryId)));
    conditions.push(sql`${gigs.categoryId} in ${inCategory}`);
  }
  if (filters.budget) conditions.push(budgetCondition(filters.budget));
  const after = decodeCursor(filters.cursor, 2);
  if (after && typeof after[0] === "string" && typeof after[1] === "string" && isUuid(after[1])) {
    conditions.push(sql`(${gigs.createdAt}, ${gigs.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`);
  }

  return db
    .select({
      id: gigs.id,
      title: gigs.title,
      description: gigs.description,
      location: gigs.location,
      timeline: gigs.timeline,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      categoryName: categories.name,
      createdAt: exactTimestamp(gigs.createdAt),
      purchaseCount: gigs.purchaseCount,
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(and(...conditions))
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(size + 1);
}

export async function listOpenGigs(db: Database, filters: BrowseFilters, size = PAGE_SIZE): Promise<Page<GigSummary>> {
  const rows = await browseGigsQuery(db, filters, size);
  const page = toPage(rows, size, (row) => [row.createdAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({ ...row, leadPriceCents: leadPriceCents(row.budgetMinCents) })),
  };
}
