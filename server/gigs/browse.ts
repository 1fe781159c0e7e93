/**
 * Browse Gigs: listed gigs (open and published) newest first, with search, category (a
 * top-level category takes in its sub-categories) and budget band, one keyset page at a
 * time. Only gigs whose lead is for sale are listed (`forSale()`, server/leads/for-sale.ts: open,
 * published, not withdrawn, not full of completed purchases). Only public fields: no client name or e-mail,
 * and of the phone only whether it is verified (issue 49), never the number.
 */
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { MAX_CATEGORIES } from "#core/digger-schemas.ts";
import { timeAgo } from "#core/relative-time.ts";
import type { GigSummary } from "#core/gig-types.ts";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { clientRecordLines } from "#core/reply-guarantee.ts";
import { clientRatingLine } from "#core/two-way-reviews.ts";
import { BUDGET_BANDS, type BudgetBand } from "#core/budget-bands.ts";
import { CARD_DESCRIPTION_LENGTH, excerpt } from "#core/excerpt.ts";
import { phoneStatus } from "#core/phone-verification.ts";
import type { Database } from "../db/client.ts";
import { categories, clientRecords, diggerProfiles, gigs } from "../db/schema.ts";
import { forSale } from "../leads/for-sale.ts";
import { recordColumns, recordMonths } from "./client-record.ts";
import { cappedCountQuery, containsPattern, containsText, SEARCH_MAX_LENGTH } from "../db/search.ts";
import { placeholder, preparedQuery, preparedRows } from "../db/prepared.ts";
import { listTopLevelCategories } from "../categories.ts";
import { anyone } from "../guards.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { defineOperation } from "../operation.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";

export interface BrowseFilters {
  search: string;
  /** A city, ZIP or area: "contains" on the gig's location (issue 23). */
  location: string;
  /** Repeated `category` parameters (or one of ids joined by commas, from the filter form): each takes in its sub-categories. */
  categoryIds: string[];
  budget: BudgetBand | null;
  /**
   * 'Verified phone only' (`phone=verified`, issue 49): the gigs whose client verified its phone,
   * read from gigs_open_verified_newest_idx. Absent or false: every gig. Never set while phone
   * verification is off (the filter is hidden then).
   */
  verifiedPhone?: boolean;
  cursor: string | null;
}


/**
 * A digger's area as Browse Gigs filters by it: the city, the text before the first comma, so
 * a profile's "Austin, TX" finds the gigs at "Austin, TX 78701".
 */
export function areaOf(location: string): string {
  return (location.split(",")[0] ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

/** The value of `phone` that asks for 'Verified phone only'. */
const VERIFIED_PHONE_PARAM = "verified";

/**
 * Filters from the address bar; anything malformed is ignored rather than an error, and so is
 * `phone=verified` while phone verification is off.
 */
export function parseBrowseFilters(searchParams: URLSearchParams, verificationOn = true): BrowseFilters {
  const budget = searchParams.get("budget");
  const categoryIds = searchParams.getAll("category").flatMap((value) => value.split(",")).filter(isUuid);
  return {
    search: (searchParams.get("q") ?? "").trim(),
    location: (searchParams.get("location") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    // As many as a digger's profile may hold (their own categories come here after registering).
    categoryIds: [...new Set(categoryIds)].slice(0, MAX_CATEGORIES),
    budget: BUDGET_BANDS.includes(budget as BudgetBand) ? (budget as BudgetBand) : null,
    verifiedPhone: verificationOn && searchParams.get("phone") === VERIFIED_PHONE_PARAM,
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

/**
 * What changes the browse statements' text (server/db/prepared.ts): which filters are set, and
 * for the list whether it is the search's window. The filters' values are placeholders
 * (`browseValues`).
 */
export interface BrowseShape {
  [key: string]: boolean | string | null;
  cursor: boolean;
  categories: boolean;
  budget: BudgetBand | null;
  verified: boolean;
  location: boolean;
  search: boolean;
}

export function browseShape(filters: BrowseFilters, withCursor = true): BrowseShape {
  return {
    cursor: withCursor && decodeCursor(filters.cursor, TIMESTAMP_UUID_CURSOR) !== null,
    categories: filters.categoryIds.length > 0,
    budget: filters.budget,
    verified: filters.verifiedPhone === true,
    location: filters.location !== "",
    search: filters.search !== "",
  };
}

/** The placeholders' values of `filters`, for a page of `size` and one row more. */
export function browseValues(filters: BrowseFilters, size = PAGE_SIZE): Record<string, unknown> {
  const after = decodeCursor(filters.cursor, TIMESTAMP_UUID_CURSOR);
  return {
    categoryIds: filters.categoryIds,
    location: containsPattern(filters.location),
    search: containsPattern(filters.search),
    afterAt: after?.[0],
    afterId: after?.[1],
    limit: size + 1,
  };
}

/** Every filter but the search: listed, category, budget band and the page cursor. */
function listConditions(shape: BrowseShape): SQL[] {
  const conditions: SQL[] = [forSale()];
  if (shape.categories) {
    const ids = sql`${placeholder("categoryIds")}::uuid[]`;
    const inCategory = sql`select ${categories.id} from ${categories} where ${categories.id} = any(${ids}) or ${categories.parentCategoryId} = any(${ids})`;
    // An array of the few ids, found first: the category index can then be scanned for each of
    // them. With "in (subquery)" the planner may hash-join a whole scan of the listed gigs.
    conditions.push(sql`${gigs.categoryId} = any(array(${inCategory}))`);
  }
  if (shape.budget) conditions.push(budgetCondition(shape.budget));
  // The partial index's own predicate, so that the planner can walk it newest first.
  if (shape.verified) conditions.push(sql`${gigs.phoneVerifiedAt} is not null`);
  if (shape.location) conditions.push(containsText(sql`lower(${gigs.location})`, placeholder("location")));
  if (shape.cursor) {
    conditions.push(sql`(${gigs.createdAt}, ${gigs.id}) < (${placeholder("afterAt")}::timestamptz, ${placeholder("afterId")}::uuid)`);
  }
  return conditions;
}

/**
 * One page and one row more of open gigs from `source` (the table, or a window of it), each
 * with its client's record (issue 48). The page is chosen first, in a subquery with its own
 * LIMIT, so the record is read for its rows only, by primary keys, whichever index the
 * planner walks (a search's sort included): still one query a page.
 */
function gigPage(db: Database, source: typeof gigs | RecentGigs, where: SQL | undefined) {
  const page = db
    .select({
      id: source.id,
      title: source.title,
      description: source.description,
      location: source.location,
      timeline: source.timeline,
      budgetMinCents: source.budgetMinCents,
      budgetMaxCents: source.budgetMaxCents,
      categoryName: sql<string>`${categories.name}`.as("category_name"),
      sortAt: source.createdAt,
      createdAt: exactTimestamp(source.createdAt).as("created_at_text"),
      purchaseCount: source.purchaseCount,
      maxDiggers: source.maxDiggers,
      clientId: source.clientId,
      hasPhone: sql<boolean>`${source.contactPhone} is not null`.as("has_phone"),
      phoneVerified: sql<boolean>`${source.phoneVerifiedAt} is not null`.as("phone_verified"),
    })
    .from(source)
    .innerJoin(categories, eq(categories.id, source.categoryId))
    .where(where)
    .orderBy(desc(source.createdAt), desc(source.id))
    .limit(placeholder("limit"))
    .as("page");
  const months = recordMonths(db, page.clientId);
  return db
    .select({
      id: page.id,
      title: page.title,
      description: page.description,
      location: page.location,
      timeline: page.timeline,
      budgetMinCents: page.budgetMinCents,
      budgetMaxCents: page.budgetMaxCents,
      categoryName: page.categoryName,
      createdAt: page.createdAt,
      purchaseCount: page.purchaseCount,
      maxDiggers: page.maxDiggers,
      spotsTaken: page.purchaseCount,
      hasPhone: page.hasPhone,
      phoneVerified: page.phoneVerified,
      record: recordColumns(months, page.clientId),
    })
    .from(page)
    .leftJoin(clientRecords, eq(clientRecords.clientId, page.clientId))
    .leftJoinLateral(months, sql`true`)
    .orderBy(desc(page.sortAt), desc(page.id));
}

/** The browse query itself (one page and one row more, its values placeholders: `browseValues`), unexecuted: tests EXPLAIN it. */
export function browseGigsQuery(db: Database, shape: BrowseShape) {
  const conditions = listConditions(shape);
  if (shape.search) conditions.push(containsText(gigs.searchText, placeholder("search")));
  return gigPage(db, gigs, and(...conditions));
}

/**
 * How many gigs, in list order, a search first looks through before it asks the trigram
 * index. A common term fills its page from the newest few hundred gigs; a rare one is cheap
 * to find through the index. Either way the cost does not grow with the table.
 */
const SEARCH_WINDOW = 500;

/** The next SEARCH_WINDOW gigs of the list, every filter but the search applied. */
function recentGigs(db: Database, shape: BrowseShape) {
  return db
    .select()
    .from(gigs)
    .where(and(...listConditions(shape)))
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(SEARCH_WINDOW)
    .as("recent");
}
type RecentGigs = ReturnType<typeof recentGigs>;

/**
 * The search among the next SEARCH_WINDOW gigs of the list only. The window is a subquery
 * with its own LIMIT, so PostgreSQL must walk the list's index and cannot switch to the
 * trigram index, whose cost grows with the number of matches.
 */
export function windowSearchQuery(db: Database, shape: BrowseShape) {
  const recent = recentGigs(db, shape);
  return gigPage(db, recent, containsText(recent.searchText, placeholder("search")));
}

/**
 * The list's statements, built once per shape: a search's or a location's is sent unnamed, so
 * that PostgreSQL plans it for its words (a rare term goes to the trigram index, a common one
 * walks the newest first); the others are named.
 */
const forWords = (shape: BrowseShape) => !shape.search && !shape.location;
const browseRows = preparedQuery("browse_gigs", (db, shape: BrowseShape) => browseGigsQuery(db, shape), { named: forWords });
const windowRows = preparedQuery("browse_gigs_window", (db, shape: BrowseShape) => windowSearchQuery(db, shape), { named: forWords });

/** The rows of the browse query (`browseGigsQuery`) for `filters`, without the search's window. */
export function browseGigsRows(db: Database, filters: BrowseFilters, size = PAGE_SIZE) {
  return browseRows(db, browseShape(filters), browseValues(filters, size));
}

/** How many listed gigs match the filters (not the cursor), up to COUNT_CAP + 1. */
const countRows = preparedRows<{ count: number }, BrowseShape>(
  "browse_gigs_count",
  (shape) => {
    const conditions = listConditions(shape);
    if (shape.search) conditions.push(containsText(gigs.searchText, placeholder("search")));
    return cappedCountQuery(sql`select 1 from ${gigs} where ${and(...conditions)}`);
  },
  { named: forWords },
);

async function countOpenGigs(db: Database, filters: BrowseFilters): Promise<number> {
  const [row] = await countRows(db, browseShape(filters, false), browseValues(filters));
  return Number(row?.count ?? 0);
}

/**
 * One page of the gigs for sale. `verificationOn` (phoneVerificationOn(config)): whether the
 * cards say anything of the phone; off, nothing at all.
 */
export async function listOpenGigs(
  db: Database,
  filters: BrowseFilters,
  size = PAGE_SIZE,
  now = new Date(),
  verificationOn = true,
): Promise<Page<GigSummary>> {
  const shape = browseShape(filters);
  const values = browseValues(filters, size);
  // A search tries the window first: when it fills the page (and finds the row after it,
  // for the next cursor), those are exactly the rows the full query would return.
  let rows = filters.search ? await windowRows(db, shape, values) : [];
  if (rows.length <= size) rows = await browseRows(db, shape, values);
  const page = toPage(rows, size, (row) => [row.createdAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    // Each field named, not `{ ...row, leadPriceCents }` (decision 0066: a new hidden class a card).
    items: page.items.map((row) => ({
      id: row.id,
      title: row.title,
      description: excerpt(row.description, CARD_DESCRIPTION_LENGTH),
      location: row.location,
      timeline: row.timeline,
      budgetMinCents: row.budgetMinCents,
      budgetMaxCents: row.budgetMaxCents,
      categoryName: row.categoryName,
      createdAt: row.createdAt,
      posted: `Posted ${timeAgo(row.createdAt, now)}`,
      purchaseCount: row.purchaseCount,
      maxDiggers: row.maxDiggers,
      spotsTaken: row.spotsTaken,
      leadPriceCents: leadPriceCents(row.budgetMinCents),
      clientRecord: clientRecordLines(row.record)[0] ?? null,
      clientRating: clientRatingLine(row.record.reviewAverage, row.record.reviewCount),
      phoneStatus: phoneStatus(verificationOn, row.hasPhone, row.phoneVerified),
    })),
  };
}

/** The chosen categories' names, in the filter's order (a sub-category is not among the top-level options). */
async function chosenCategories(db: Database, ids: string[]): Promise<Array<{ id: string; name: string }>> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: categories.id, name: categories.name }).from(categories).where(inArray(categories.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The signed-in digger's own area, or null (a visitor, a client, no profile yet). */
async function ownArea(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ location: diggerProfiles.location }).from(diggerProfiles).where(eq(diggerProfiles.userId, userId));
  return row ? areaOf(row.location) : null;
}

/**
 * /browse-gigs: a page of the gigs for sale that match the filters, their count, the categories
 * (and the chosen ones by name) and whether the list is the digger's own area ('near you').
 */
export const browseGigsPage = defineOperation({
  access: anyone,
  async run({ services: { db, config }, url, user }) {
    const verificationOn = phoneVerificationOn(config);
    const filters = parseBrowseFilters(url.searchParams, verificationOn);
    const [page, count, categories, chosen, area] = await Promise.all([
      listOpenGigs(db, filters, PAGE_SIZE, new Date(), verificationOn),
      // The count is of the whole result: loading more pages does not ask again.
      filters.cursor ? null : countOpenGigs(db, filters),
      listTopLevelCategories(db),
      chosenCategories(db, filters.categoryIds),
      filters.location && user?.userType === "digger" ? ownArea(db, user.id) : null,
    ]);
    const nearYou = area !== null && area.toLowerCase() === filters.location.toLowerCase();
    return { page, count, categories, chosenCategories: chosen, filters, nearYou, verificationOn };
  },
});
