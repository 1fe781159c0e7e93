/**
 * A profile's photos: what the form asks for (new files, work photos kept, the profile photo
 * removed), storing the new ones checked, cleaned and resized in the digger's own folder, and
 * removing files no profile uses any more.
 */
import { createHash } from "node:crypto";
import { MAX_WORK_PHOTOS, PHOTO_MESSAGES } from "#core/digger-schemas.ts";
import type { OwnDiggerProfile } from "#core/digger-types.ts";
import { AppError } from "../errors.ts";
import { ImageRejected, storeImage } from "../storage/images.ts";
import { keyOfUploadUrl, uploadUrl, type Storage } from "../storage/storage.ts";

/** Work photos fit 1600 x 1600, the profile photo 512 x 512. */
const WORK_PHOTO_SIDE = 1600;
const PROFILE_PHOTO_SIDE = 512;

type ProfilePhotos = Pick<OwnDiggerProfile, "profileImageUrl" | "workPhotos">;

export interface PhotoChoices {
  newProfilePhoto: File | undefined;
  newWorkPhotos: File[];
  /** Only photos this profile already has: never an address the browser made up. */
  keptWorkPhotos: string[];
  removeProfilePhoto: boolean;
}

/**
 * What the form asks for the photos of `existing` (null for a new profile): at most 12 work
 * photos, kept ones counted; `removeProfilePhoto` is the form's box, parsed with its fields.
 */
export function photoChoices(form: FormData, existing: ProfilePhotos | null, removeProfilePhoto: boolean): PhotoChoices {
  const files = (name: string) => form.getAll(name).filter((v): v is File => typeof v !== "string" && v.size > 0);
  const choices = {
    newProfilePhoto: files("profilePhoto")[0],
    newWorkPhotos: files("workPhotos"),
    keptWorkPhotos: form
      .getAll("keepWorkPhotos")
      .filter((v): v is string => typeof v === "string" && (existing?.workPhotos ?? []).includes(v)),
    removeProfilePhoto,
  };
  if (choices.keptWorkPhotos.length + choices.newWorkPhotos.length > MAX_WORK_PHOTOS) {
    throw new AppError("invalid_input", PHOTO_MESSAGES.count, { fieldErrors: { workPhotos: PHOTO_MESSAGES.count } });
  }
  return choices;
}

/**
 * Stores the new photos of `userId`'s profile; returns the profile's photos as they will be
 * and the keys stored. Each digger's photos have their own folder, so removing one never
 * touches another's file.
 */
export async function storePhotos(
  storage: Storage,
  userId: string,
  choices: PhotoChoices,
  existing: ProfilePhotos | null,
): Promise<{ photos: ProfilePhotos; stored: string[] }> {
  const folder = `diggers/${createHash("sha256").update(userId).digest("hex").slice(0, 24)}`;
  const stored: string[] = [];
  let profileImageUrl = choices.removeProfilePhoto ? null : (existing?.profileImageUrl ?? null);
  const workPhotos = [...choices.keptWorkPhotos];
  try {
    if (choices.newProfilePhoto) {
      const image = await storeImage(storage, choices.newProfilePhoto, folder, PROFILE_PHOTO_SIDE);
      stored.push(image.key);
      profileImageUrl = uploadUrl(image.key);
    }
    for (const file of choices.newWorkPhotos) {
      const image = await storeImage(storage, file, folder, WORK_PHOTO_SIDE);
      stored.push(image.key);
      workPhotos.push(uploadUrl(image.key));
    }
  } catch (error) {
    if (!(error instanceof ImageRejected)) throw error;
    const field = choices.newProfilePhoto && stored.length === 0 ? "profilePhoto" : "workPhotos";
    throw new AppError("invalid_input", error.message, { fieldErrors: { [field]: error.message } });
  }
  return { photos: { profileImageUrl, workPhotos: [...new Set(workPhotos)] }, stored };
}

/** Deletes stored files that `profile` (the one before, or null) does not use. Best effort. */
export async function removeUnused(storage: Storage, keys: string[], profile: ProfilePhotos | null): Promise<void> {
  const inUse = new Set([profile?.profileImageUrl, ...(profile?.workPhotos ?? [])]);
  await Promise.allSettled(keys.filter((key) => !inUse.has(uploadUrl(key))).map((key) => storage.delete(key)));
}

/** Deletes the files of the photos `before` had and `after` no longer has. */
export async function removeReplaced(storage: Storage, before: ProfilePhotos, after: ProfilePhotos): Promise<void> {
  const now = [after.profileImageUrl, ...after.workPhotos];
  const dropped = [before.profileImageUrl, ...before.workPhotos].filter((url): url is string => !!url && !now.includes(url));
  await removeUnused(storage, dropped.map(keyOfUploadUrl).filter((k): k is string => k !== null), null);
}
