/**
 * The operations behind /digger-registration: the form's data (the category list and, for
 * a digger who has a profile, that profile with its private fields: only its owner gets
 * here), and saving it. Profile, categories and references are written in one transaction
 * (design.md section 1); photos are checked, cleaned and stored before it.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { firstMessage } from "#core/auth-schemas.ts";
import {
  diggerFieldErrors,
  diggerFormValues,
  diggerProfileSchema,
  HANDLE_TAKEN,
  MAX_PHOTO_BYTES,
  MAX_WORK_PHOTOS,
  PHOTO_MESSAGES,
  type DiggerProfileInput,
} from "#core/digger-schemas.ts";
import type { CategoryGroup, OwnDiggerProfile } from "#core/digger-types.ts";
import { requireUser } from "../auth/guards.ts";
import type { Database, Transaction } from "../db/client.ts";
import { categories, diggerCategories, diggerProfiles, diggerReferences } from "../db/schema.ts";
import { redirectWithFlash } from "../flash.ts";
import { ImageRejected, storeImage } from "../storage/images.ts";
import { keyOfUploadUrl, uploadUrl, type Storage } from "../storage/storage.ts";
import { isUniqueViolation } from "../db/errors.ts";

export interface DiggerFormResult {
  error?: string;
  fieldErrors?: Record<string, string>;
}

const ACCESS = {
  userType: { type: "digger", message: "Only diggers can access this page", redirectTo: "/" },
} as const;
const REGISTRATION_AUTH = "/auth?type=digger&redirect=%2Fdigger-registration";

/** Work photos fit 1600 x 1600, the profile photo 512 x 512. */
const WORK_PHOTO_SIDE = 1600;
const PROFILE_PHOTO_SIDE = 512;
/** The whole request: every photo at its limit plus the text fields. */
const MAX_BODY_BYTES = (MAX_WORK_PHOTOS + 1) * MAX_PHOTO_BYTES + 1024 * 1024;

const failure = (error: string, status = 400, fieldErrors?: Record<string, string>) =>
  data<DiggerFormResult>({ error, fieldErrors }, { status });

export async function loadDiggerProfileForm(context: AppLoadContext, request: Request) {
  const user = await requireUser(context, request, { ...ACCESS, signedOut: { redirectTo: REGISTRATION_AUTH } });
  const db = context.services.db;
  const [groups, profile] = await Promise.all([categoryGroups(db), ownProfile(db, user.id)]);
  return { categories: groups, profile };
}

/** Every category, top-level ones by name, each with its sub-categories by name. */
async function categoryGroups(db: Database): Promise<CategoryGroup[]> {
  const rows = await db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentCategoryId })
    .from(categories)
    .orderBy(asc(categories.name));
  const groups = new Map<string, CategoryGroup>();
  for (const row of rows) if (!row.parentId) groups.set(row.id, { id: row.id, name: row.name, children: [] });
  for (const row of rows) if (row.parentId) groups.get(row.parentId)?.children.push({ id: row.id, name: row.name });
  return [...groups.values()];
}

async function ownProfile(db: Database, userId: string): Promise<OwnDiggerProfile | null> {
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

export async function saveDiggerProfile(context: AppLoadContext, request: Request) {
  const user = await requireUser(context, request, {
    ...ACCESS,
    signedOut: { message: "Not authenticated", redirectTo: REGISTRATION_AUTH },
  });
  const { db, storage, config, logger } = context.services;

  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
    return failure(PHOTO_MESSAGES.size, 413, { workPhotos: PHOTO_MESSAGES.size });
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return failure("The form could not be read. Please try again.");
  }
  const parsed = diggerProfileSchema.safeParse(diggerFormValues(form));
  if (!parsed.success) return failure(firstMessage(parsed.error), 400, diggerFieldErrors(parsed.error));
  const input = parsed.data;

  const known = await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, input.categoryIds));
  if (known.length !== input.categoryIds.length) {
    return failure("Please select categories from the list", 400, { categoryIds: "Please select categories from the list" });
  }

  const existing = await ownProfile(db, user.id);
  const files = (name: string) => form.getAll(name).filter((v): v is File => typeof v !== "string" && v.size > 0);
  const newWorkPhotos = files("workPhotos");
  const newProfilePhoto = files("profilePhoto")[0];
  // Only photos this profile already has can be kept: never an address the browser made up.
  const keptWorkPhotos = form
    .getAll("keepWorkPhotos")
    .filter((v): v is string => typeof v === "string" && (existing?.workPhotos ?? []).includes(v));
  if (keptWorkPhotos.length + newWorkPhotos.length > MAX_WORK_PHOTOS) {
    return failure(PHOTO_MESSAGES.count, 400, { workPhotos: PHOTO_MESSAGES.count });
  }

  // Each digger's photos have their own folder, so removing one never touches another's file.
  const folder = `diggers/${createHash("sha256").update(user.id).digest("hex").slice(0, 24)}`;
  const stored: string[] = [];
  let profileImageUrl = form.get("removeProfilePhoto") === "on" ? null : (existing?.profileImageUrl ?? null);
  const workPhotos = [...keptWorkPhotos];
  try {
    if (newProfilePhoto) {
      const image = await storeImage(storage, newProfilePhoto, folder, PROFILE_PHOTO_SIDE);
      stored.push(image.key);
      profileImageUrl = uploadUrl(image.key);
    }
    for (const file of newWorkPhotos) {
      const image = await storeImage(storage, file, folder, WORK_PHOTO_SIDE);
      stored.push(image.key);
      workPhotos.push(uploadUrl(image.key));
    }
  } catch (error) {
    if (!(error instanceof ImageRejected)) throw error;
    const field = newProfilePhoto && stored.length === 0 ? "profilePhoto" : "workPhotos";
    return failure(error.message, 400, { [field]: error.message });
  }
  const photos = { profileImageUrl, workPhotos: [...new Set(workPhotos)] };

  let diggerId: string;
  try {
    diggerId = await db.transaction((tx) => writeProfile(tx, user.id, existing, input, photos));
  } catch (error) {
    await removeUnused(storage, stored, existing);
    if (isUniqueViolation(error, "digger_profiles_handle_key")) return failure(HANDLE_TAKEN, 409, { handle: HANDLE_TAKEN });
    if (isUniqueViolation(error, "digger_profiles_user_id_unique")) return failure("You already have a digger profile", 409);
    throw error;
  }
  if (existing) {
    const now = [photos.profileImageUrl, ...photos.workPhotos];
    const dropped = [existing.profileImageUrl, ...existing.workPhotos].filter((url): url is string => !!url && !now.includes(url));
    await removeUnused(storage, dropped.map(keyOfUploadUrl).filter((k): k is string => k !== null), null).catch((err: unknown) =>
      logger.warn({ err }, "could not remove replaced photos"),
    );
  }
  return redirectWithFlash(
    config,
    `/digger/${diggerId}`,
    "success",
    existing ? "Profile updated successfully!" : "Profile created successfully!",
  );
}

/** Inserts or updates the profile with its categories and references; returns its id. */
export async function writeProfile(
  tx: Transaction,
  userId: string,
  existing: Pick<OwnDiggerProfile, "id" | "references"> | null,
  input: DiggerProfileInput,
  photos: { profileImageUrl: string | null; workPhotos: string[] },
): Promise<string> {
  const { categoryIds, references, ...fields } = input;
  const values = { ...fields, ...photos };
  let diggerId: string;
  if (existing) {
    await tx.update(diggerProfiles).set(values).where(eq(diggerProfiles.id, existing.id));
    diggerId = existing.id;
    await tx.delete(diggerCategories).where(eq(diggerCategories.diggerId, diggerId));
  } else {
    const [row] = await tx.insert(diggerProfiles).values({ userId, ...values }).returning({ id: diggerProfiles.id });
    diggerId = row!.id;
  }
  await tx.insert(diggerCategories).values(categoryIds.map((categoryId) => ({ diggerId, categoryId })));

  // A reference keeps its id (and the contact requests made for it) while it stays on the form.
  const ownIds = new Set(existing?.references.map((r) => r.id) ?? []);
  const kept = references.filter((r) => r.id && ownIds.has(r.id));
  const keptIds = kept.map((r) => r.id!);
  if (existing) {
    await tx
      .delete(diggerReferences)
      .where(
        keptIds.length > 0
          ? and(eq(diggerReferences.diggerId, diggerId), notInArray(diggerReferences.id, keptIds))
          : eq(diggerReferences.diggerId, diggerId),
      );
  }
  const columns = (r: (typeof references)[number]) => ({
    referenceName: r.name,
    referenceEmail: r.email,
    referencePhone: r.phone,
    projectDescription: r.projectDescription,
  });
  for (const r of kept) {
    await tx
      .update(diggerReferences)
      .set(columns(r))
      .where(and(eq(diggerReferences.id, r.id!), eq(diggerReferences.diggerId, diggerId)));
  }
  const added = references.filter((r) => !(r.id && ownIds.has(r.id)));
  if (added.length > 0) await tx.insert(diggerReferences).values(added.map((r) => ({ diggerId, ...columns(r) })));
  return diggerId;
}

/** Deletes stored files that the (previous) profile does not use. Best effort. */
async function removeUnused(storage: Storage, keys: string[], profile: Pick<OwnDiggerProfile, "profileImageUrl" | "workPhotos"> | null) {
  const inUse = new Set([profile?.profileImageUrl, ...(profile?.workPhotos ?? [])]);
  await Promise.allSettled(keys.filter((key) => !inUse.has(uploadUrl(key))).map((key) => storage.delete(key)));
}
