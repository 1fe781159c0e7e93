/**
 * The landing page's showcase: the top-rated diggers and the newest listed gigs, with public
 * fields only. A digger appears by handle (never full name, business name, phone or e-mail)
 * and a gig without its poster (never the client's name or e-mail).
 */
import { asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { CARD_DESCRIPTION_LENGTH, excerpt } from "#core/excerpt.ts";
import type { Database } from "../db/client.ts";
import { categories, diggerCategories, diggerProfiles, gigs } from "../db/schema.ts";
import { anyone } from "../guards.ts";
import { forSale } from "../leads/for-sale.ts";
import { defineOperation } from "../operation.ts";

const LANDING_SHOWCASE_SIZE = 3;

interface LandingDigger {
  id: string;
  handle: string;
  profession: string;
  /** The digger's category names, sub-categories first, then alphabetical. */
  expertise: string[];
  averageRating: number;
  totalRatings: number;
  profileImageUrl: string | null;
}

interface LandingGig {
  id: string;
  title: string;
  description: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  timeline: string;
  categoryName: string;
  /** Completed lead purchases (the landing page's "bids"). */
  purchaseCount: number;
}

export interface LandingShowcase {
  diggers: LandingDigger[];
  gigs: LandingGig[];
}

export async function getLandingShowcase(db: Database): Promise<LandingShowcase> {
  // Rating first (served by digger_profiles_rating_idx, with an incremental sort for the
  // rest), then the better-established of two equal ratings, then id for a stable order.
  const topDiggers = await db
    .select({
      id: diggerProfiles.id,
      handle: diggerProfiles.handle,
      profession: diggerProfiles.profession,
      averageRating: diggerProfiles.averageRating,
      totalRatings: diggerProfiles.totalRatings,
      profileImageUrl: diggerProfiles.profileImageUrl,
    })
    .from(diggerProfiles)
    .where(isNull(diggerProfiles.hiddenAt))
    .orderBy(desc(diggerProfiles.averageRating), desc(diggerProfiles.totalRatings), asc(diggerProfiles.id))
    .limit(LANDING_SHOWCASE_SIZE);

  const expertise = new Map<string, string[]>();
  if (topDiggers.length > 0) {
    const rows = await db
      .select({ diggerId: diggerCategories.diggerId, name: categories.name })
      .from(diggerCategories)
      .innerJoin(categories, eq(categories.id, diggerCategories.categoryId))
      .where(
        inArray(
          diggerCategories.diggerId,
          topDiggers.map((d) => d.id),
        ),
      )
      .orderBy(sql`${categories.parentCategoryId} is null`, asc(categories.name));
    for (const row of rows) {
      const names = expertise.get(row.diggerId) ?? [];
      names.push(row.name);
      expertise.set(row.diggerId, names);
    }
  }

  // Listed gigs newest first: the order of gigs_open_newest_idx.
  const newestGigs = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      description: gigs.description,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      timeline: gigs.timeline,
      categoryName: categories.name,
      purchaseCount: gigs.purchaseCount,
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(forSale())
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(LANDING_SHOWCASE_SIZE);

  return {
    diggers: topDiggers.map((d) => ({
      ...d,
      averageRating: Number(d.averageRating),
      expertise: expertise.get(d.id) ?? [],
    })),
    gigs: newestGigs.map((g) => ({ ...g, description: excerpt(g.description, CARD_DESCRIPTION_LENGTH) })),
  };
}

/** The home page (/): its showcase, the same for everyone. */
export const landingPage = defineOperation({
  access: anyone,
  run: ({ services: { db } }) => getLandingShowcase(db),
});
