/**
 * The data of /digger-registration: the category list and, for a digger who has a profile,
 * that profile with its private fields (only its owner gets here). Saving it is
 * save-profile.ts.
 */
import { asc, eq } from "drizzle-orm";
import type { CategoryGroup, OwnDiggerProfile } from "#core/digger-types.ts";
import type { Database } from "../db/client.ts";
import { categories, diggerCategories, diggerProfiles, diggerReferences } from "../db/schema.ts";

export async function profileFormPage(db: Database, userId: string): Promise<{ categories: CategoryGroup[]; profile: OwnDiggerProfile | null }> {
  const [groups, profile] = await Promise.all([categoryGroups(db), ownProfile(db, userId)]);
  return { categories: groups, profile };
}

/** Every category, top-level ones by name, each with its sub-categories by name. */
export async function categoryGroups(db: Database): Promise<CategoryGroup[]> {
  const rows = await db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentCategoryId })
    .from(categories)
    .orderBy(asc(categories.name));
  const groups = new Map<string, CategoryGroup>();
  for (const row of rows) if (!row.parentId) groups.set(row.id, { id: row.id, name: row.name, children: [] });
  for (const row of rows) if (row.parentId) groups.get(row.parentId)?.children.push({ id: row.id, name: row.name });
  return [...groups.values()];
}

/** The user's own profile with its categories and references, or null. */
export async function ownProfile(db: Database, userId: string): Promise<OwnDiggerProfile | null> {
  const [profile] = await db
    .select({
      id: diggerProfiles.id,
      handle: diggerProfiles.handle,
      businessName: diggerProfiles.businessName,
      phone: diggerProfiles.phone,
      location: diggerProfiles.location,
      profession: diggerProfiles.profession,
      bio: diggerProfiles.bio,
      profileImageUrl: diggerProfiles.profileImageUrl,
      portfolioUrl: diggerProfiles.portfolioUrl,
      hourlyRateMinCents: diggerProfiles.hourlyRateMinCents,
      hourlyRateMaxCents: diggerProfiles.hourlyRateMaxCents,
      yearsExperience: diggerProfiles.yearsExperience,
      availability: diggerProfiles.availability,
      isInsured: diggerProfiles.isInsured,
      isBonded: diggerProfiles.isBonded,
      isLicensed: diggerProfiles.isLicensed,
      workPhotos: diggerProfiles.workPhotos,
    })
    .from(diggerProfiles)
    .where(eq(diggerProfiles.userId, userId));
  if (!profile) return null;
  const [categoryRows, references] = await Promise.all([
    db.select({ id: diggerCategories.categoryId }).from(diggerCategories).where(eq(diggerCategories.diggerId, profile.id)),
    db
      .select({
        id: diggerReferences.id,
        name: diggerReferences.referenceName,
        email: diggerReferences.referenceEmail,
        phone: diggerReferences.referencePhone,
        projectDescription: diggerReferences.projectDescription,
      })
      .from(diggerReferences)
      .where(eq(diggerReferences.diggerId, profile.id))
      .orderBy(asc(diggerReferences.createdAt), asc(diggerReferences.id)),
  ]);
  return { ...profile, categoryIds: categoryRows.map((c) => c.id), references };
}
