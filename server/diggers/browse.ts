/**
 * Browse Talent: digger cards with public fields only, searched, filtered and sorted on the
 * server, a page at a time with keyset cursors (server/pagination.ts). Each sort has an
 * index that matches its order, with the id as tie-breaker.
 */
import { and, asc, desc, eq, gte, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DiggerCardData } from "#core/digger-types.ts";
import type { Database } from "../db/client.ts";
import { categories, diggerCategories, diggerProfiles, visitRecords } from "../db/schema.ts";
import { cappedCount, containsLocation, containsText, SEARCH_MAX_LENGTH } from "../db/search.ts";
import { z } from "zod";
import { CURSOR_UUID, decodeCursor, PAGE_SIZE, toPage, type Page } from "../pagination.ts";
import { isUuid } from "#core/ids.ts";
import { keptVisitsLine } from "#core/kept-visits.ts";
import { responseTimes } from "../conversations/response-time.ts";
import { anyone } from "../guards.ts";
import { listTopLevelCategories } from "../categories.ts";
import { defineOperation } from "../operation.ts";

const DIGGER_SORTS = ["rating", "experience", "rate"] as const;
export type DiggerSort = (typeof DIGGER_SORTS)[number];

export interface BrowseFilters {
  q: string;
  /** A city, ZIP or area: "contains" on the digger's location (issue 23). */
  location: string;
  /** A top-level category id, or "" for all. */
  category: string;
  sort: DiggerSort;
}

/** The filters from the address, with anything unknown replaced by its default. */
export function browseFilters(searchParams: URLSearchParams): BrowseFilters {
  const sort = searchParams.get("sort");
  const category = searchParams.get("category") ?? "";
  return {
    q: (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    location: (searchParams.get("location") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    category: isUuid(category) ? category.toLowerCase() : "",
    sort: DIGGER_SORTS.includes(sort as DiggerSort) ? (sort as DiggerSort) : "rating",
  };
}

const p = diggerProfiles;
const ORDER: Record<DiggerSort, SQL[]> = {
  rating: [desc(p.averageRating), asc(p.id)],
  experience: [sql`${p.yearsExperience} desc nulls last`, asc(p.id)],
  rate: [sql`${p.hourlyRateMinCents} asc nulls last`, asc(p.id)],
};

/** A whole number an integer column holds (experience in years, rate in cents), or null (not given). */
const cursorInteger = z.int().min(0).max(2 ** 31 - 1).nullable();
/** Each sort's cursor: `[its sort value, profile id]`, the value as its column holds it. */
const CURSORS = {
  rating: z.tuple([z.number().min(0).max(5), CURSOR_UUID]),
  experience: z.tuple([cursorInteger, CURSOR_UUID]),
  rate: z.tuple([cursorInteger, CURSOR_UUID]),
} satisfies Record<DiggerSort, z.ZodType>;
type Cursor = [number | null, string];

/** Rows strictly after the cursor's row in the sort's order. */
function after(sort: DiggerSort, cursor: Cursor): SQL | undefined {
  const [value, id] = cursor;
  const afterId = sql`${p.id} > ${id}`;
  if (sort === "rating") {
    if (value === null) return undefined;
    return or(sql`${p.averageRating} < ${value}`, and(eq(p.averageRating, value), afterId));
  }
  const column = sort === "experience" ? p.yearsExperience : p.hourlyRateMinCents;
  // Nulls come last in both: after a null only nulls with a greater id; after a value, nulls too.
  if (value === null) return and(isNull(column), afterId);
  const beyond = sort === "experience" ? sql`${column} < ${value}` : sql`${column} > ${value}`;
  return or(beyond, and(eq(column, value), afterId), isNull(column));
}

/**
 * How far below the page's top rating a search looks first. A "contains" search ordered by
 * rating has to read every match to sort them (no index does both), so a term that matches
 * 1% of 200k profiles reads 2,000 rows for a page of 20. Asking first for the matches rated
 * within this band of the page's top (the trigram and rating indexes combined in one bitmap)
 * reads only those; when the band holds a full page, that page is exactly what the whole
 * search would give, and otherwise the whole search runs (bench/results/history.md, "The digger
 * search reads a rating band first").
 */
const SEARCH_RATING_BAND = 0.1;

function selectCards(db: Database, conditions: Array<SQL | undefined>, sort: DiggerSort) {
  return db
    .select({
      id: p.id,
      handle: p.handle,
      profession: p.profession,
      location: p.location,
      averageRating: p.averageRating,
      totalRatings: p.totalRatings,
      yearsExperience: p.yearsExperience,
      hourlyRateMinCents: p.hourlyRateMinCents,
      hourlyRateMaxCents: p.hourlyRateMaxCents,
      profileImageUrl: p.profileImageUrl,
      verified: p.verified,
      // Kept and counted visits as the digger (issue 50): the page's rows only, by primary key.
      visitsKept: visitRecords.kept,
      visitsCounted: visitRecords.counted,
    })
    .from(p)
    .leftJoin(visitRecords, and(eq(visitRecords.userId, p.userId), eq(visitRecords.role, "digger")))
    .where(and(...conditions))
    .orderBy(...ORDER[sort])
    .limit(PAGE_SIZE + 1);
}
type CardRow = Awaited<ReturnType<typeof selectCards>>[number];

/**
 * A search in rating order: the page from the top rating band when the band holds a full page,
 * else the page from every match (a second query, cheap when the first found few).
 */
async function searchByRating(db: Database, conditions: Array<SQL | undefined>, cursor: Cursor | null): Promise<CardRow[]> {
  const top = cursor?.[0] ?? 5;
  const band = await selectCards(db, [...conditions, gte(p.averageRating, top - SEARCH_RATING_BAND)], "rating");
  return band.length > PAGE_SIZE ? band : selectCards(db, conditions, "rating");
}

/** The filters as conditions (not the cursor): public profiles, search, location, category. */
function filterConditions(filters: BrowseFilters): Array<SQL | undefined> {
  // Profiles of deleted accounts are hidden everywhere public.
  const conditions: Array<SQL | undefined> = [isNull(p.hiddenAt)];
  if (filters.q) {
    conditions.push(containsText(p.searchText, filters.q));
  }
  if (filters.location) conditions.push(containsLocation(p.location, filters.location));
  if (filters.category) {
    // A top-level category includes its sub-categories.
    conditions.push(sql`exists (
      select 1 from ${diggerCategories} join ${categories} on ${categories.id} = ${diggerCategories.categoryId}
      where ${diggerCategories.diggerId} = ${p.id}
        and (${categories.id} = ${filters.category} or ${categories.parentCategoryId} = ${filters.category}))`);
  }
  return conditions;
}

/** How many diggers match the filters, up to COUNT_CAP + 1. */
function countDiggers(db: Database, filters: BrowseFilters): Promise<number> {
  return cappedCount(db, sql`select 1 from ${p} where ${and(...filterConditions(filters))}`);
}

export async function browseDiggers(db: Database, filters: BrowseFilters, cursorParam: string | null): Promise<Page<DiggerCardData>> {
  const conditions = filterConditions(filters);
  const cursor: Cursor | null = decodeCursor(cursorParam, CURSORS[filters.sort]);
  if (cursor) conditions.push(after(filters.sort, cursor));

  const rows = filters.q && filters.sort === "rating" ? await searchByRating(db, conditions, cursor) : await selectCards(db, conditions, filters.sort);

  const page = toPage(rows, PAGE_SIZE, (row) => {
    const value = { rating: Number(row.averageRating), experience: row.yearsExperience, rate: row.hourlyRateMinCents }[filters.sort];
    return [value, row.id];
  });
  const ids = page.items.map((d) => d.id);
  const [names, replies] = await Promise.all([categoryNames(db, ids), responseTimes(db, ids)]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(({ visitsKept, visitsCounted, ...d }) => ({
      ...d,
      averageRating: Number(d.averageRating),
      categories: names.get(d.id) ?? [],
      responseTime: replies.get(d.id) ?? null,
      keptVisits: keptVisitsLine(visitsCounted === null ? null : { kept: visitsKept ?? 0, counted: visitsCounted }),
    })),
  };
}

/** Each digger's category names: sub-categories first (the specific skills), then alphabetical. */
async function categoryNames(db: Database, diggerIds: string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (diggerIds.length === 0) return names;
  const rows = await db
    .select({ diggerId: diggerCategories.diggerId, name: categories.name })
    .from(diggerCategories)
    .innerJoin(categories, eq(categories.id, diggerCategories.categoryId))
    .where(inArray(diggerCategories.diggerId, diggerIds))
    .orderBy(sql`${categories.parentCategoryId} is null`, asc(categories.name));
  for (const row of rows) names.set(row.diggerId, [...(names.get(row.diggerId) ?? []), row.name]);
  return names;
}

/** /browse-diggers: a page of the diggers that match the filters, their count and the categories. */
export const browseDiggersPage = defineOperation({
  access: anyone,
  async run({ services: { db }, url }) {
    const filters = browseFilters(url.searchParams);
    const cursor = url.searchParams.get("cursor");
    const [categories, page, count] = await Promise.all([
      listTopLevelCategories(db),
      browseDiggers(db, filters, cursor),
      // The count is of the whole result: loading more pages does not ask again.
      cursor ? null : countDiggers(db, filters),
    ]);
    return { filters, categories, page, count };
  },
});
