/**
 * Seeding. The category taxonomy is upserted on every start (idempotent, by slug). Demo data
 * (accounts, digger profiles, open gigs) goes only into a database that has no users yet, in
 * one transaction, so a half-seeded database cannot exist.
 */
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { count, sql } from "drizzle-orm";
import type { Database, Transaction } from "../client.ts";
import {
  accounts,
  categories,
  diggerCategories,
  diggerProfiles,
  diggerReferences,
  gigs,
  users,
} from "../schema.ts";
import { demoConsumers, demoDiggers, demoGigs } from "./demo-data.ts";
import { taxonomy } from "./taxonomy.ts";

/** The demo accounts named in the README. */
export const DEMO_PASSWORD = "digsandgigs-demo";
export const DEMO_CONSUMER = { email: "consumer@example.com", fullName: "Casey Consumer" } as const;
export const DEMO_DIGGER = { email: "digger@example.com", fullName: "Dana Digger" } as const;

export async function seedCategories(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (const top of taxonomy) {
      const [parent] = await tx
        .insert(categories)
        .values({ slug: top.slug, name: top.name, description: top.description })
        .onConflictDoUpdate({
          target: categories.slug,
          set: { name: top.name, description: top.description, parentCategoryId: null },
        })
        .returning({ id: categories.id });
      await tx
        .insert(categories)
        .values(top.children.map((c) => ({ ...c, parentCategoryId: parent!.id })))
        .onConflictDoUpdate({
          target: categories.slug,
          set: {
            name: sql`excluded.name`,
            description: sql`excluded.description`,
            parentCategoryId: sql`excluded.parent_category_id`,
          },
        });
    }
  });
}

/** Returns false, doing nothing, when the database already has users. */
export async function seedDemoData(db: Database, now = new Date()): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(users);
    if (existing!.n > 0) return false;

    const categoryIds = new Map(
      (await tx.select({ id: categories.id, slug: categories.slug }).from(categories)).map((c) => [c.slug, c.id]),
    );
    const categoryId = (slug: string) => {
      const id = categoryIds.get(slug);
      if (!id) throw new Error(`Demo data names an unknown category: ${slug}`);
      return id;
    };

    // The first demo consumer and the first demo digger are the accounts one can sign in as.
    const consumerIds: string[] = [];
    for (const [i, c] of demoConsumers.entries()) {
      const person = i === 0 ? DEMO_CONSUMER : c;
      consumerIds.push(await insertUser(tx, person, "consumer", i === 0 ? passwordHash : null));
    }
    for (const [i, d] of demoDiggers.entries()) {
      const person = i === 0 ? DEMO_DIGGER : d;
      const userId = await insertUser(tx, person, "digger", i === 0 ? passwordHash : null);
      const [profile] = await tx
        .insert(diggerProfiles)
        .values({
          userId,
          handle: d.handle,
          businessName: d.businessName,
          phone: d.phone,
          location: d.location,
          profession: d.profession,
          bio: d.bio,
          portfolioUrl: d.portfolioUrl,
          hourlyRateMinCents: d.hourlyRateMinCents,
          hourlyRateMaxCents: d.hourlyRateMaxCents,
          yearsExperience: d.yearsExperience,
          availability: d.availability,
          isInsured: d.isInsured,
          isBonded: d.isBonded,
          isLicensed: d.isLicensed,
          averageRating: d.averageRating,
          totalRatings: d.totalRatings,
          verified: d.verified,
          completionRate: d.completionRate,
          responseTimeHours: d.responseTimeHours,
        })
        .returning({ id: diggerProfiles.id });
      const diggerId = profile!.id;
      await tx
        .insert(diggerCategories)
        .values([...new Set(d.categorySlugs)].map((slug) => ({ diggerId, categoryId: categoryId(slug) })));
      await tx.insert(diggerReferences).values(
        d.references.map((r) => ({
          diggerId,
          referenceName: r.name,
          referenceEmail: r.email,
          referencePhone: r.phone,
          projectDescription: r.projectDescription,
        })),
      );
    }

    const today = now.toISOString().slice(0, 10);
    await tx.insert(gigs).values(
      demoGigs.map((g) => ({
        consumerId: consumerIds[g.consumerIndex]!,
        title: g.title.trim(),
        description: g.description.trim(),
        location: g.location,
        timeline: g.timeline,
        budgetMinCents: g.budgetMinCents,
        budgetMaxCents: g.budgetMaxCents,
        categoryId: categoryId(g.categorySlug),
        contactPreferences: g.contactPreferences,
        deadline: g.deadlineInDays === null ? null : addDays(today, g.deadlineInDays),
        createdAt: new Date(now.getTime() - g.postedHoursAgo * 3_600_000),
      })),
    );
    return true;
  });
}

async function insertUser(
  tx: Transaction,
  person: { email: string; fullName: string },
  userType: "consumer" | "digger",
  passwordHash: string | null,
): Promise<string> {
  const id = randomUUID();
  await tx.insert(users).values({ id, name: person.fullName, email: person.email, emailVerified: true, userType });
  if (passwordHash) {
    await tx
      .insert(accounts)
      .values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash });
  }
  return id;
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
