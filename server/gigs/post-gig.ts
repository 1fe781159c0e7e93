/**
 * Posting a gig: validated with core's rules, under a top-level category, at most 10 an hour
 * and 30 a day per account (counted by every server alike: each gig can alert every matching
 * digger). A gig visible at once (its client's e-mail is confirmed) starts its lead alerts in
 * the same transaction (the event "gig.visible"). Its phone is stored in E.164; a number the
 * account has not verified gets a code once the gig is saved (issue 49, gig-phone.ts).
 */
import { and, eq, isNull } from "drizzle-orm";
import { postGigSchema } from "#core/gig-schema.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withRequest } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { POST_GIG_FORM } from "./access.ts";
import { codeForSavedGig, gigPhoneReader, NO_CODE, type GigPhoneCode } from "./gig-phone.ts";
import { lockAccountPhones } from "../phones/phone-lock.ts";

const CATEGORY_REQUIRED = "Please select a category";
export const GIG_POSTS_LIMITED = "You have posted many gigs today. Try again tomorrow.";

async function isTopLevelCategory(db: Database, id: string): Promise<boolean> {
  const [category] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.id, id), isNull(categories.parentCategoryId)));
  return category !== undefined;
}

/**
 * Saves the client's gig, open; returns its id, whether it is published (its client's e-mail
 * is confirmed): the page says 'Gig posted successfully!' only then (issue 47), and whether a
 * code was sent to verify its phone (issue 49).
 */
export const postGig = defineOperation({
  access: withRequest(POST_GIG_FORM),
  // No deadline before the reader's today, the date picker's first day (issue 47).
  input: ({ user, services }) => postGigSchema(readerTime(user.timeZone, services.config).today, gigPhoneReader(services.config)),
  async run({ services, user, clientIp, logger, input: gig }): Promise<{ id: string; published: boolean; code: GigPhoneCode }> {
    const { db, emit, rateLimits } = services;
    const clientId = user.id;
    if (!(await isTopLevelCategory(db, gig.categoryId))) {
      throw new AppError("invalid_input", CATEGORY_REQUIRED, { fieldErrors: { categoryId: CATEGORY_REQUIRED } });
    }
    // Only a valid gig counts: a form refused for a field can be corrected and sent again.
    if (!(await rateLimits.gigPostsPerHour.take(clientId)) || !(await rateLimits.gigPostsPerDay.take(clientId))) {
      throw new AppError("too_many_requests", GIG_POSTS_LIMITED);
    }
    const posted = await db.transaction(async (tx) => {
      await lockAccountPhones(tx, clientId);
      const [row] = await tx
        .insert(gigs)
        .values({
          clientId,
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
        .returning({ id: gigs.id, published: gigs.published });
      // Unpublished, it alerts nobody yet: confirming the e-mail starts its alerts then.
      if (row!.published) await emit(tx, { kind: "gig.visible", gigId: row!.id });
      return { id: row!.id, published: row!.published };
    });
    // After the commit: the code names the gig, and a refused code leaves the gig posted.
    const code = gig.contactPhone ? await codeForSavedGig(services, { userId: clientId, gigId: posted.id, clientIp, logger }) : NO_CODE;
    return { ...posted, code };
  },
});
