/**
 * The registration form as sent: read from its multipart body, parsed by the save operation's
 * input (`profileFormSchema`: core's rules and the photo box), then its categories checked
 * against the category list.
 */
import { inArray } from "drizzle-orm";
import { z } from "zod";
import { diggerProfileSchema } from "#core/digger-schemas.ts";
import type { Database } from "../db/client.ts";
import { categories } from "../db/schema.ts";
import { AppError } from "../errors.ts";

const UNKNOWN_CATEGORY = "Please select categories from the list";

/** The multipart form with its photos. The body's size is limited before it gets here (BODY_LIMITS in server/app.ts). */
export async function readProfileForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    throw new AppError("invalid_input", "The form could not be read. Please try again.", { cause: error });
  }
}

/**
 * The form's fields (read by core's `diggerFormValues`): the profile, valid by core's rules, and
 * whether to remove the profile photo (a box, ticked or not). The photos' files stay in the form
 * (profile-photos.ts).
 */
export const profileFormSchema = diggerProfileSchema.and(
  z.object({ removeProfilePhoto: z.unknown().optional().transform((value) => value === "on") }),
);

export type ProfileForm = z.output<typeof profileFormSchema>;

/** Every category chosen is one of ours. */
export async function refuseUnknownCategories(db: Database, categoryIds: string[]): Promise<void> {
  const known = await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, categoryIds));
  if (known.length !== categoryIds.length) {
    throw new AppError("invalid_input", UNKNOWN_CATEGORY, { fieldErrors: { categoryIds: UNKNOWN_CATEGORY } });
  }
}
