/**
 * /digger/{id}: a digger's public profile. Public columns only (design.md section 6): the
 * handle, never the full name, business name, phone or e-mail. A reference's e-mail and
 * phone are selected only for a client whose request the digger approved.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { UserType } from "#core/sign-in-schemas.ts";
import type { ContactStatus, PublicDiggerProfile, PublicReference } from "#core/digger-types.ts";
import { isUuid } from "#core/ids.ts";
import { hireRateText } from "#core/reviews.ts";
import { keptVisitsLine } from "#core/kept-visits.ts";
import type { Database } from "../db/client.ts";
import { categories, credentialDocuments, diggerCategories, diggerProfiles, diggerReferences, referenceContactRequests, visitRecords } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { responseTimeOf } from "../conversations/response-time.ts";
import { reviewPage, reviewSummary } from "../reviews/profile-reviews.ts";

/** Who is looking: the signed-in user, or null for a visitor. */
export type Viewer = { id: string; userType: UserType } | null;

/**
 * The profile page of digger `id` as `viewer` may see it, with its reviews from `reviewsCursor`;
 * 'Digger not found' sends them to Browse Talent.
 */
export async function diggerPage(db: Database, id: string, viewer: Viewer, reviewsCursor: string | null = null) {
  const p = diggerProfiles;
  const [row] = isUuid(id)
    ? await db
        .select({
          id: p.id,
          userId: p.userId,
          handle: p.handle,
          location: p.location,
          profession: p.profession,
          bio: p.bio,
          profileImageUrl: p.profileImageUrl,
          portfolioUrl: p.portfolioUrl,
          hourlyRateMinCents: p.hourlyRateMinCents,
          hourlyRateMaxCents: p.hourlyRateMaxCents,
          yearsExperience: p.yearsExperience,
          availability: p.availability,
          averageRating: p.averageRating,
          totalRatings: p.totalRatings,
          verified: p.verified,
          isInsured: p.isInsured,
          isBonded: p.isBonded,
          isLicensed: p.isLicensed,
          completionRate: p.completionRate,
          // Completed purchases: the hire rate is shown only from five of them.
          // Spelled out: in a one-table select Drizzle leaves columns unqualified ("id" would be the purchase's).
          // A purchase refunded in full is not one (migration 0027), as in completion_rate.
          purchases: sql<number>`(select count(*)::int from lead_purchases lp where lp.digger_id = digger_profiles.id and lp.status = 'completed' and not purchase_fully_refunded(lp.id))`,
          workPhotos: p.workPhotos,
          // Kept and counted visits as the digger (issue 50), kept by the database (migration 0055).
          visitsKept: visitRecords.kept,
          visitsCounted: visitRecords.counted,
        })
        .from(p)
        .leftJoin(visitRecords, and(eq(visitRecords.userId, p.userId), eq(visitRecords.role, "digger")))
        .where(and(eq(p.id, id), isNull(p.hiddenAt)))
    : [];
  if (!row) throw new AppError("not_found", "Digger not found", { redirectTo: "/browse-diggers" });
  const { userId, completionRate, purchases, visitsKept, visitsCounted, ...profile } = row;

  const clientId = viewer?.userType === "consumer" ? viewer.id : null;
  const r = diggerReferences;
  const q = referenceContactRequests;
  const approved = sql`${q.status} = 'approved'`;
  const [categoryRows, references, summary, reviewList, verifiedRows, responseTime] = await Promise.all([
    db
      .select({ name: categories.name, parentId: categories.parentCategoryId })
      .from(diggerCategories)
      .innerJoin(categories, eq(categories.id, diggerCategories.categoryId))
      .where(eq(diggerCategories.diggerId, profile.id))
      .orderBy(asc(categories.name)),
    db
      .select({
        id: r.id,
        name: r.referenceName,
        projectDescription: r.projectDescription,
        isVerified: r.isVerified,
        status: sql<ContactStatus>`coalesce(${q.status}, 'none')`,
        email: sql<string | null>`case when ${approved} then ${r.referenceEmail} end`,
        phone: sql<string | null>`case when ${approved} then ${r.referencePhone} end`,
      })
      .from(r)
      .leftJoin(q, clientId ? and(eq(q.referenceId, r.id), eq(q.clientId, clientId)) : sql`false`)
      .where(eq(r.diggerId, profile.id))
      .orderBy(asc(r.createdAt), asc(r.id)),
    reviewSummary(db, profile.id),
    // The digger sees their withdrawn reviews too, marked (finding 4 of issue 30); no one else does.
    reviewPage(db, profile.id, reviewsCursor, viewer?.id === userId),
    // Checked by an operator and not past its date: the lapse job marks it later the same night,
    // the page never claims more than the approval says (docs/decisions/0028).
    db
      .select({ credential: credentialDocuments.credential, decidedAt: credentialDocuments.decidedAt })
      .from(credentialDocuments)
      .where(
        and(
          eq(credentialDocuments.diggerId, profile.id),
          eq(credentialDocuments.status, "approved"),
          sql`${credentialDocuments.verifiedUntil} >= (now() at time zone 'UTC')::date`,
        ),
      ),
    responseTimeOf(db, profile.id),
  ]);

  const digger: PublicDiggerProfile = {
    ...profile,
    averageRating: Number(profile.averageRating),
    hireRate: hireRateText(completionRate, Number(purchases)),
    responseTime,
    keptVisits: keptVisitsLine(visitsCounted === null ? null : { kept: visitsKept ?? 0, counted: visitsCounted }),
    skills: categoryRows.filter((c) => c.parentId).map((c) => c.name),
    categories: categoryRows.filter((c) => !c.parentId).map((c) => c.name),
    verifiedCredentials: verifiedRows.map((row) => ({ credential: row.credential, verifiedOn: row.decidedAt!.toISOString() })),
  };
  return {
    digger,
    references: references satisfies PublicReference[],
    reviews: { summary, page: reviewList },
    viewer: {
      signedIn: viewer !== null,
      isOwner: viewer?.id === userId,
      /** Visitors see the button too: asking signs them in first. */
      canRequestContact: viewer?.userType !== "digger",
    },
  };
}
