/**
 * Saving a profile with its categories and references in one transaction (design.md
 * section 1): all of it is written, or none.
 */
import { and, eq, notInArray } from "drizzle-orm";
import { HANDLE_TAKEN, type DiggerProfileInput } from "#core/digger-schemas.ts";
import type { OwnDiggerProfile } from "#core/digger-types.ts";
import type { Database, Transaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerCategories, diggerProfiles, diggerReferences } from "../db/schema.ts";
import { AppError } from "../errors.ts";

type Existing = Pick<OwnDiggerProfile, "id" | "references"> | null;
type Photos = Pick<OwnDiggerProfile, "profileImageUrl" | "workPhotos">;

/** Writes `userId`'s profile in one transaction; returns its id. A handle already taken is a conflict. */
export async function saveProfileRows(db: Database, userId: string, existing: Existing, input: DiggerProfileInput, photos: Photos): Promise<string> {
  try {
    return await db.transaction((tx) => writeProfile(tx, userId, existing, input, photos));
  } catch (error) {
    if (isUniqueViolation(error, "digger_profiles_handle_key")) {
      throw new AppError("conflict", HANDLE_TAKEN, { fieldErrors: { handle: HANDLE_TAKEN }, cause: error });
    }
    if (isUniqueViolation(error, "digger_profiles_user_id_unique")) {
      throw new AppError("conflict", "You already have a digger profile", { cause: error });
    }
    throw error;
  }
}

/** Inserts or updates the profile with its categories and references; returns its id. */
async function writeProfile(tx: Transaction, userId: string, existing: Existing, input: DiggerProfileInput, photos: Photos): Promise<string> {
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
