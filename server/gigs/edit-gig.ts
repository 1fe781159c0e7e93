/**
 * Editing and deleting one of my gigs (issue 23). Only its owner may; anyone else, whatever the
 * id, gets the same 'Gig not found' as for a gig that does not exist.
 *
 * While nobody has bought the lead, every field may change. Once a purchase completed, or a
 * checkout holds a spot, the diggers pay (or paid) for the gig as it was described: only the
 * timeline, deadline, contact preferences and phone may change. A gig may be deleted until a
 * purchase completes, whatever checkouts were started (issue 30: starting and cancelling one
 * kept its client from deleting it); then it can only be closed (decision 0030).
 *
 * Each write locks the gig row first: purchases lock it too (fulfilment, holds), so a purchase
 * and an edit never interleave; what the edit checked is still true when it commits.
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { editBoughtGigSchema, editGigSchema, FIELDS_AFTER_PURCHASE } from "#core/gig-schema.ts";
import { GIG_EDIT_TEXTS, todayIso } from "#core/gig-texts.ts";
import type { GigFormValues } from "#core/gig-types.ts";
import { isUuid } from "#core/ids.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { Database, Transaction } from "../db/client.ts";
import { categories, gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { hasCompletedPurchase, hasPurchaseRow, isBought } from "../leads/spots.ts";
import type { AppServices } from "../context.ts";
import { signedIn } from "../guards.ts";
import { listTopLevelCategories } from "../categories.ts";
import { defineOperation, type Access } from "../operation.ts";

/** /my-gigs/{id}/edit: a signed-in user (only their own gigs are found). */
export const EDIT_GIG_ACCESS = signedIn({
  signedOut: { message: "Please sign in to view your gigs", redirectTo: "/auth?redirect=/my-gigs" },
});

/** The page goes back to My Gigs with the message; a form sent is answered 404 where it stands. */
function gigNotFound(page = false): AppError {
  return new AppError("not_found", "Gig not found", page ? { redirectTo: "/my-gigs" } : {});
}

/**
 * The owner's gig, not deleted (locked FOR UPDATE first when `lock`, inside a transaction), with
 * whether it is bought (a completed purchase or a checkout holding a spot), whether a purchase
 * completed, and whether it has any purchase row.
 */
async function ownGig(db: Database | Transaction, clientId: string, gigId: string, lock: boolean) {
  if (!isUuid(gigId)) return null;
  const mine = and(eq(gigs.id, gigId), eq(gigs.clientId, clientId), isNull(gigs.deletedAt));
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
      completed: hasCompletedPurchase(id),
      anyPurchase: hasPurchaseRow(id),
    })
    .from(gigs)
    .where(mine);
  return row ?? null;
}

const dollars = (cents: number | null) => (cents === null ? "" : String(cents / 100));

/** The edit page: the gig's values as its form shows them, and what may still change. */
export async function editGigPage(db: Database, clientId: string, gigId: string) {
  const row = await ownGig(db, clientId, gigId, false);
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
  return { id: gig.id, values, locked: row.bought, deletable: !row.completed, minDeadline: earliestDeadline(gig.deadline) };
}

/** Today, or the gig's own earlier deadline: leaving an old deadline as it is must not block the rest. */
function earliestDeadline(deadline: string | null): string {
  const today = todayIso();
  return deadline !== null && deadline < today ? deadline : today;
}

/** The edit form's fields: all of them while nobody has bought the gig, FIELDS_AFTER_PURCHASE once someone has. */
type GigEdit = z.output<ReturnType<typeof editGigSchema>> | z.output<ReturnType<typeof editBoughtGigSchema>>;

/**
 * Saves the edit form (`fields`, parsed for the gig as the owner's rule found it; `sent`, the
 * form as sent). A bought gig takes only FIELDS_AFTER_PURCHASE; a form that still changes
 * another field (someone bought the lead while the client was editing) is refused with 409, and
 * nothing changes. The form was parsed before the row's lock, so bought or not is checked again
 * under it: a gig bought since takes only the four fields; one whose checkout's hold lapsed
 * since takes the four its form had, and the same 409 if its form changed another.
 */
export async function updateGig(db: Database, clientId: string, gigId: string, fields: GigEdit, sent: FormData): Promise<void> {
  const input = Object.fromEntries(sent);
  await db.transaction(async (tx) => {
    const row = await ownGig(tx, clientId, gigId, true);
    if (!row) throw gigNotFound();
    const { gig, bought } = row;
    // Four fields only: bought now, or parsed as bought (a hold that lapsed since): either way a
    // form that changes another field is refused rather than saved without it.
    const fourFieldsOnly = bought || !("title" in fields);
    if (fourFieldsOnly) {
      const lockedFields = Object.keys(input).filter((k) => !(FIELDS_AFTER_PURCHASE as readonly string[]).includes(k));
      if (lockedFields.some((k) => k !== "intent" && String(input[k]) !== String(currentValue(gig, k)))) {
        throw new AppError("conflict", GIG_EDIT_TEXTS.lockedConflict);
      }
    }
    if (fourFieldsOnly) {
      const { timeline, deadline, contactPreferences, contactPhone } = fields;
      await tx.update(gigs).set({ timeline, deadline, contactPreferences, contactPhone }).where(eq(gigs.id, gig.id));
      return;
    }
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

/** What a deleted gig keeps of its text: a title (the refund notice of a late payment names it), nothing of its client's words. */
export const DELETED_GIG = {
  description: "The client deleted this gig; its details were removed.",
  removed: "Removed",
} as const;

/**
 * Deletes a gig no purchase of which completed; otherwise 409 and nothing changes. A gig without
 * any purchase row goes; one with checkouts started for it (their rows stay: lead_purchases
 * restricts deleting the gig, and a payment may still arrive) is closed, marked deleted and
 * stripped of its text, in the same transaction, and is gone everywhere. Then each checkout
 * still pending is ended at the payment provider, after the commit and never under the lock; a
 * payment that arrives anyway finds the gig gone and is refunded in full (fulfilment.ts).
 */
export async function deleteGig(services: Pick<AppServices, "db" | "payments" | "logger">, clientId: string, gigId: string): Promise<void> {
  const pending = await services.db.transaction(async (tx) => {
    const row = await ownGig(tx, clientId, gigId, true);
    if (!row) throw gigNotFound();
    if (row.completed) throw new AppError("conflict", GIG_EDIT_TEXTS.notDeletable);
    if (!row.anyPurchase) {
      await tx.delete(gigs).where(eq(gigs.id, row.gig.id));
      return [];
    }
    await tx
      .update(gigs)
      .set({
        status: "closed",
        deletedAt: sql`now()`,
        filledAt: null,
        description: DELETED_GIG.description,
        location: DELETED_GIG.removed,
        timeline: DELETED_GIG.removed,
        deadline: null,
        contactPreferences: null,
        contactPhone: null,
      })
      .where(eq(gigs.id, row.gig.id));
    return tx
      .select({ sessionId: leadPurchases.providerSessionId })
      .from(leadPurchases)
      .where(and(eq(leadPurchases.gigId, row.gig.id), eq(leadPurchases.status, "pending"), isNotNull(leadPurchases.providerSessionId)));
  });
  for (const { sessionId } of pending) {
    await services.payments.expireCheckout(sessionId!).catch((error: unknown) => {
      services.logger.warn({ err: error, sessionId }, "could not end the checkout of a deleted gig: a payment for it will be refunded");
    });
  }
}

/** /my-gigs/{id}/edit: the gig's form and the categories to choose from. */
export const editGigForm = defineOperation({
  access: EDIT_GIG_ACCESS,
  async run({ services: { db }, user, params }) {
    const [gig, categories] = await Promise.all([editGigPage(db, user.id, params.gigId ?? ""), listTopLevelCategories(db)]);
    return { gig, categories };
  },
});

/**
 * The edit form's sender: the gig's owner (anyone else, whatever the id, gets 'Gig not found');
 * the operation learns the gig, since what its form may change depends on it.
 */
const EDITED_GIG: Access<{ user: SessionUser; gig: typeof gigs.$inferSelect; bought: boolean }> = {
  async resolve(context, request, params) {
    const { user } = await EDIT_GIG_ACCESS.resolve(context, request, params);
    const row = await ownGig(context.services.db, user.id, params.gigId ?? "", false);
    if (!row) throw gigNotFound();
    return { user, gig: row.gig, bought: row.bought };
  },
};

/** The edit form sent: the gig saved; says what to tell its client. */
export const saveGig = defineOperation({
  access: EDITED_GIG,
  // The schema depends on the gig, which only the database knows: every field while nobody has
  // bought it, the four left once someone has; and its deadline (an old one left as it is stays
  // valid). So the rule reads the gig, its schema parses the form, and `updateGig` checks again
  // under the row's lock (a bought gig's form with a bad value among the four is answered 400
  // before its locked fields are compared for the 409).
  input: ({ gig, bought }) => (bought ? editBoughtGigSchema : editGigSchema)(earliestDeadline(gig.deadline)),
  async run({ services: { db }, user, gig, input, form }) {
    await updateGig(db, user.id, gig.id, input, form ?? new FormData());
    return { flash: GIG_EDIT_TEXTS.saved };
  },
});

/** Delete (intent=delete, from the confirmation of My Gigs, the gig page or the edit page). */
export const removeGig = defineOperation({
  access: EDIT_GIG_ACCESS,
  async run({ services, user, params }) {
    await deleteGig(services, user.id, params.gigId ?? "");
    return { flash: GIG_EDIT_TEXTS.deleted };
  },
});
