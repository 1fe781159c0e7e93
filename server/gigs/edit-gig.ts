/**
 * Editing and deleting one of my gigs (issue 23). Only its owner may; anyone else, whatever the
 * id, gets the same 'Gig not found' as for a gig that does not exist.
 *
 * While nobody has bought the lead, every field may change and the gig may be deleted. Once a
 * purchase completed, or a checkout holds a spot, the diggers pay (or paid) for the gig as it
 * was described: only the timeline, deadline, contact preferences and phone may change, and
 * the gig can only be closed. Deleting also needs no purchase row at all (an abandoned checkout
 * keeps its row, and a payment may still arrive for it within the checkout's life).
 *
 * Each write locks the gig row first: purchases lock it too (fulfilment, holds), so a purchase
 * and an edit never interleave; what the edit checked is still true when it commits.
 */
import { and, eq, sql } from "drizzle-orm";
import {
  editBoughtGigSchema,
  editGigSchema,
  FIELDS_AFTER_PURCHASE,
  GIG_EDIT_TEXTS,
  todayIso,
} from "#core/gig-schema.ts";
import type { GigFormValues } from "#core/gig-types.ts";
import { isUuid } from "#core/ids.ts";
import type { Database, Transaction } from "../db/client.ts";
import { categories, gigs } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import { hasPurchaseRow, isBought } from "../leads/spots.ts";
import type { AccessRule } from "../auth/guards.ts";

/** /my-gigs/{id}/edit: a signed-in user (only their own gigs are found). */
export const EDIT_GIG_ACCESS = {
  signedOut: { message: "Please sign in to view your gigs", redirectTo: "/auth?redirect=/my-gigs" },
} satisfies AccessRule;

/** The page goes back to My Gigs with the message; a form sent is answered 404 where it stands. */
function gigNotFound(page = false): AppError {
  return new AppError("not_found", "Gig not found", page ? { redirectTo: "/my-gigs" } : {});
}

/**
 * The owner's gig (locked FOR UPDATE first when `lock`, inside a transaction), with whether it
 * is bought (a completed purchase or a checkout holding a spot) and whether it has any purchase row.
 */
async function ownGig(db: Database | Transaction, consumerId: string, gigId: string, lock: boolean) {
  if (!isUuid(gigId)) return null;
  const mine = and(eq(gigs.id, gigId), eq(gigs.consumerId, consumerId));
  if (lock) {
    const [locked] = await db.select({ id: gigs.id }).from(gigs).where(mine).for("update");
    if (!locked) return null;
  }
  // The gig's id as a parameter: a column inside a one-table select renders unqualified ("id"),
  // which the subquery would read as lead_purchases.id.
  const id = sql`${gigId}::uuid`;
  const [row] = await db
    .select({
      gig: gigs,
      bought: isBought(id),
      anyPurchase: hasPurchaseRow(id),
    })
    .from(gigs)
    .where(mine);
  return row ?? null;
}

const dollars = (cents: number | null) => (cents === null ? "" : String(cents / 100));

/** The edit page: the gig's values as its form shows them, and what may still change. */
export async function editGigPage(db: Database, consumerId: string, gigId: string) {
  const row = await ownGig(db, consumerId, gigId, false);
  if (!row) throw gigNotFound(true);
  const { gig } = row;
  const values: GigFormValues = {
    title: gig.title,
    description: gig.description,
    location: gig.location,
    timeline: gig.timeline,
    categoryId: gig.categoryId,
    maxDiggers: gig.maxDiggers,
    budgetMin: dollars(gig.budgetMinCents),
    budgetMax: dollars(gig.budgetMaxCents),
    deadline: gig.deadline ?? "",
    contactPreferences: gig.contactPreferences ?? "",
    contactPhone: gig.contactPhone ?? "",
  };
  return { id: gig.id, values, locked: row.bought, deletable: !row.anyPurchase, minDeadline: earliestDeadline(gig.deadline) };
}

/** Today, or the gig's own earlier deadline: leaving an old deadline as it is must not block the rest. */
function earliestDeadline(deadline: string | null): string {
  const today = todayIso();
  return deadline !== null && deadline < today ? deadline : today;
}

/**
 * Saves the edit form. A bought gig takes only FIELDS_AFTER_PURCHASE; a form that still
 * changes another field (someone bought the lead while the client was editing) is refused
 * with 409, and nothing changes.
 */
export async function updateGig(db: Database, consumerId: string, gigId: string, form: FormData): Promise<void> {
  const input = Object.fromEntries(form);
  await db.transaction(async (tx) => {
    const row = await ownGig(tx, consumerId, gigId, true);
    if (!row) throw gigNotFound();
    const { gig, bought } = row;
    const today = earliestDeadline(gig.deadline);
    if (bought) {
      const lockedFields = Object.keys(input).filter((k) => !(FIELDS_AFTER_PURCHASE as readonly string[]).includes(k));
      if (lockedFields.some((k) => k !== "intent" && String(input[k]) !== String(currentValue(gig, k)))) {
        throw new AppError("conflict", GIG_EDIT_TEXTS.lockedConflict);
      }
      const fields = parsedInput(editBoughtGigSchema(today), input);
      await tx.update(gigs).set(fields).where(eq(gigs.id, gig.id));
      return;
    }
    const fields = parsedInput(editGigSchema(today), input);
    const [category] = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.id, fields.categoryId), sql`${categories.parentCategoryId} is null`));
    if (!category) {
      throw new AppError("invalid_input", "Please select a category", { fieldErrors: { categoryId: "Please select a category" } });
    }
    const { budgetMin, budgetMax, ...rest } = fields;
    await tx.update(gigs).set({ ...rest, budgetMinCents: budgetMin, budgetMaxCents: budgetMax }).where(eq(gigs.id, gig.id));
  });
}

/** A locked field's stored value as the form would send it unchanged (disabled fields are not sent at all). */
function currentValue(gig: typeof gigs.$inferSelect, field: string): string {
  switch (field) {
    case "title":
    case "description":
    case "location":
    case "categoryId":
      return gig[field];
    case "maxDiggers":
      return String(gig.maxDiggers);
    case "budgetMin":
      return dollars(gig.budgetMinCents);
    case "budgetMax":
      return dollars(gig.budgetMaxCents);
    default:
      // A field the form does not have: any value for it is a change.
      return "\u0000";
  }
}

/** Deletes a gig nobody has bought (no purchase row at all); otherwise 409 and nothing changes. */
export async function deleteGig(db: Database, consumerId: string, gigId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await ownGig(tx, consumerId, gigId, true);
    if (!row) throw gigNotFound();
    if (row.anyPurchase) throw new AppError("conflict", GIG_EDIT_TEXTS.notDeletable);
    await tx.delete(gigs).where(eq(gigs.id, row.gig.id));
  });
}
