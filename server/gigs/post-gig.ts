/** Posting a gig: validated with core's rules, under a top-level category. */
import { and, eq, isNull } from "drizzle-orm";
import { postGigSchema } from "#core/gig-schema.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";

const CATEGORY_REQUIRED = "Please select a category";

async function isTopLevelCategory(db: Database, id: string): Promise<boolean> {
  const [category] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.id, id), isNull(categories.parentCategoryId)));
  return category !== undefined;
}

/** Saves the consumer's gig, open; returns its id. */
export async function postGig(db: Database, consumerId: string, form: FormData): Promise<{ id: string }> {
  const gig = parsedInput(postGigSchema(), Object.fromEntries(form));
  if (!(await isTopLevelCategory(db, gig.categoryId))) {
    throw new AppError("invalid_input", CATEGORY_REQUIRED, { fieldErrors: { categoryId: CATEGORY_REQUIRED } });
  }
  try {
    const [row] = await db
      .insert(gigs)
      .values({
        consumerId,
        title: gig.title,
        description: gig.description,
        location: gig.location,
        timeline: gig.timeline,
        budgetMinCents: gig.budgetMin,
        budgetMaxCents: gig.budgetMax,
        categoryId: gig.categoryId,
        maxDiggers: gig.maxDiggers,
        deadline: gig.deadline,
        contactPreferences: gig.contactPreferences,
        contactPhone: gig.contactPhone,
        status: "open",
      })
      .returning({ id: gigs.id });
    return row!;
  } catch (error) {
    throw new AppError("failed", "Failed to post gig. Please try again.", { cause: error });
  }
}
