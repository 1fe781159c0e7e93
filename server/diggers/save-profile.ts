/**
 * Saving /digger-registration: the form (read by `readProfileForm`, parsed by `profileFormSchema`) has its categories checked, the new photos stored before the
 * transaction (and removed again if it fails), the profile written in one transaction, then
 * the files of replaced photos removed.
 */
import type { AppServices } from "../context.ts";
import { ownProfile } from "./profile-form.ts";
import { refuseUnknownCategories, type ProfileForm } from "./profile-input.ts";
import { photoChoices, removeReplaced, removeUnused, storePhotos } from "./profile-photos.ts";
import { saveProfileRows } from "./write-profile.ts";

/**
 * Creates or updates `userId`'s profile from its fields (`profileFormSchema`) and the photos'
 * files in `form` (`readProfileForm`); says which, and its id.
 */
export async function saveDiggerProfile(
  { db, storage, logger }: Pick<AppServices, "db" | "storage" | "logger">,
  userId: string,
  { removeProfilePhoto, ...profile }: ProfileForm,
  form: FormData,
): Promise<{ diggerId: string; created: boolean }> {
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
  return { diggerId, created: existing === null };
}
