/**
 * The registration form as sent: read from its multipart body, then checked against core's
 * rules (diggerProfileSchema) and the category list.
 */
import { inArray } from "drizzle-orm";
import { diggerFormValues, diggerProfileSchema, type DiggerProfileInput } from "#core/digger-schemas.ts";
import type { Database } from "../db/client.ts";
import { categories } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";

const UNKNOWN_CATEGORY = "Please select categories from the list";

/** The multipart form with its photos. The body's size is limited before it gets here (BODY_LIMITS in server/app.ts). */
export async function readProfileForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    throw new AppError("invalid_input", "The form could not be read. Please try again.", { cause: error });
  }
}

/** The profile's fields, categories and references, valid by core's rules; every category is one of ours. */
export async function validProfile(db: Database, form: FormData): Promise<DiggerProfileInput> {
  const input = parsedInput(diggerProfileSchema, diggerFormValues(form));
  const known = await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, input.categoryIds));
  if (known.length !== input.categoryIds.length) {
    throw new AppError("invalid_input", UNKNOWN_CATEGORY, { fieldErrors: { categoryIds: UNKNOWN_CATEGORY } });
  }
  return input;
}
