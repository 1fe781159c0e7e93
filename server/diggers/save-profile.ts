/**
 * Saving /digger-registration: the form (read by `readProfileForm`, parsed by `profileFormSchema`) has its categories checked, the new photos stored before the
 * transaction (and removed again if it fails), the profile written in one transaction, then
 * the files of replaced photos removed.
 */
import { diggerFormValues } from "#core/digger-schemas.ts";
import type { AppServices } from "../context.ts";
import { areaOf } from "../gigs/browse.ts";
import { defineOperation } from "../operation.ts";
import { PROFILE_FORM_SAVE } from "./access.ts";
import { ownProfile } from "./profile-form.ts";
import { profileFormSchema, refuseUnknownCategories, type ProfileForm } from "./profile-input.ts";
import { photoChoices, removeReplaced, removeUnused, storePhotos } from "./profile-photos.ts";
import { saveProfileRows } from "./write-profile.ts";

/** Where a new digger goes next: Browse Gigs in their own categories and area. */
function browseTheirGigs(categoryIds: string[], location: string): string {
  const query = new URLSearchParams(categoryIds.map((id) => ["category", id]));
  const area = areaOf(location);
  if (area) query.set("location", area);
  return `/browse-gigs?${query}`;
}

/**
 * Creates or updates `userId`'s profile from its fields (`profileFormSchema`) and the photos'
 * files in `form` (`readProfileForm`); says which, its id, and where to go next: a new
 * profile to Browse Gigs (their categories and area), an edited one to the profile.
 */
async function saveDiggerProfile(
  { db, storage, logger }: Pick<AppServices, "db" | "storage" | "logger">,
  userId: string,
  { removeProfilePhoto, ...profile }: ProfileForm,
  form: FormData,
): Promise<{ diggerId: string; created: boolean; next: string }> {
  await refuseUnknownCategories(db, profile.categoryIds);
  const existing = await ownProfile(db, userId);
  const { photos, stored } = await storePhotos(storage, userId, photoChoices(form, existing, removeProfilePhoto), existing);

  let diggerId: string;
  try {
    diggerId = await saveProfileRows(db, userId, existing, profile, photos);
  } catch (error) {
    await removeUnused(storage, stored, existing);
    throw error;
  }
  if (existing) {
    await removeReplaced(storage, existing, photos).catch((err: unknown) => logger.warn({ err }, "could not remove replaced photos"));
  }
  const created = existing === null;
  return { diggerId, created, next: created ? browseTheirGigs(profile.categoryIds, profile.location) : `/digger/${diggerId}` };
}

/** The profile form: created or updated; says which, its id and where to go next. */
export const saveRegistrationProfile = defineOperation({
  access: PROFILE_FORM_SAVE,
  input: profileFormSchema,
  // Categories repeated, references numbered: core's reading of the form.
  fields: diggerFormValues,
  run: ({ services, user, input, form }) => saveDiggerProfile(services, user.id, input, form ?? new FormData()),
});
