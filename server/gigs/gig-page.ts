/** One gig as anyone may see it: the poster appears by first name only. */
import { and, eq, isNull, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs, users } from "../db/schema.ts";

export async function getPublicGig(db: Database, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      description: gigs.description,
      location: gigs.location,
      timeline: gigs.timeline,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      deadline: gigs.deadline,
      status: gigs.status,
      createdAt: gigs.createdAt,
      purchaseCount: gigs.purchaseCount,
      categoryName: categories.name,
      categoryDescription: categories.description,
      posterFirstName: sql<string>`split_part(btrim(${users.name}), ' ', 1)`,
      consumerId: gigs.consumerId,
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .innerJoin(users, eq(users.id, gigs.consumerId))
    // A deleted account's gigs leave the site with it.
    .where(and(eq(gigs.id, id), isNull(users.deletedAt)));
  if (!row) return null;
  const { consumerId, ...gig } = row;
  return {
    gig: { ...gig, createdAt: gig.createdAt.toISOString(), leadPriceCents: leadPriceCents(gig.budgetMinCents) },
    /** For permission checks on the server; never sent to the browser. */
    ownerId: consumerId,
  };
}
