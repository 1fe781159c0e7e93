/** Posting a gig: consumers only, validated with core's rules, a top-level category. */
import { and, eq, isNull } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { fieldMessages, firstMessage } from "#core/auth-schemas.ts";
import { postGigSchema } from "#core/gig-schema.ts";
import { categories, gigs } from "../db/schema.ts";
import { redirectWithFlash } from "../flash.ts";

export interface PostGigResult {
  error: string;
  fieldErrors?: Record<string, string>;
}

export async function postGig(context: AppLoadContext, request: Request) {
  const { config, db, logger } = context.services;
  const { user } = await context.session();
  if (!user) return redirectWithFlash(config, "/auth?redirect=/post-gig", "error", "Session expired. Please sign in again.");
  if (user.userType !== "consumer") return redirectWithFlash(config, "/", "error", "Only consumers can post gigs");

  const parsed = postGigSchema().safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<PostGigResult>({ error: firstMessage(parsed.error), fieldErrors: fieldMessages(parsed.error) }, { status: 400 });
  }
  const gig = parsed.data;
  const [category] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.id, gig.categoryId), isNull(categories.parentCategoryId)));
  if (!category) {
    return data<PostGigResult>({ error: "Please select a category", fieldErrors: { categoryId: "Please select a category" } }, { status: 400 });
  }

  try {
    await db.insert(gigs).values({
      consumerId: user.id,
      title: gig.title,
      description: gig.description,
      location: gig.location,
      timeline: gig.timeline,
      budgetMinCents: gig.budgetMin,
      budgetMaxCents: gig.budgetMax,
      categoryId: gig.categoryId,
      deadline: gig.deadline,
      contactPreferences: gig.contactPreferences,
      status: "open",
    });
  } catch (error) {
    logger.error({ err: error }, "posting a gig failed");
    return data<PostGigResult>({ error: "Failed to post gig. Please try again." }, { status: 500 });
  }
  return redirectWithFlash(config, "/", "success", "Gig posted successfully!");
}
