/**
 * Saving the edit form of one of my gigs (issue 23). While nobody has bought the lead, every
 * field may change. Once a purchase completed, or a checkout holds a spot, the diggers pay (or
 * paid) for the gig as it was described: only the timeline, deadline, contact preferences and
 * phone may change. A changed phone is stored in E.164, forgets the old number's verification
 * when nothing else of the account gives it, and gets a code unless the account verified it
 * already (issue 49); a free-text number of before sent back as it was stays as it is.
 */
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { editBoughtGigSchema, editGigSchema, FIELDS_AFTER_PURCHASE } from "#core/gig-schema.ts";
import { GIG_EDIT_TEXTS } from "#core/gig-texts.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withRequest, type RequestParts } from "../guards.ts";
import { defineOperation, type Access } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { MY_GIGS } from "./access.ts";
import { dollars, earliestDeadline } from "./edit-form.ts";
import { lockAccountPhones } from "../phones/phone-lock.ts";
import { gigNotFound, ownGig } from "./gig-owner.ts";
import { codeForSavedGig, gigPhoneChanged, gigPhoneReader, NO_CODE } from "./gig-phone.ts";

/** The edit form's fields: all of them while nobody has bought the gig, FIELDS_AFTER_PURCHASE once someone has. */
type GigEdit = z.output<ReturnType<typeof editGigSchema>> | z.output<ReturnType<typeof editBoughtGigSchema>>;

/**
 * Saves the edit form (`fields`, parsed for the gig as the owner's rule found it; `sent`, the
 * form as sent). A bought gig takes only FIELDS_AFTER_PURCHASE; a form that still changes
 * another field (someone bought the lead while the client was editing) is refused with 409, and
 * nothing changes. The form was parsed before the row's lock, so bought or not is checked again
 * under it: a gig bought since takes only the four fields; one whose checkout's hold lapsed
 * since takes the four its form had, and the same 409 if its form changed another. Says whether
 * the phone changed.
 */
export async function updateGig(db: Database, clientId: string, gigId: string, fields: GigEdit, sent: FormData): Promise<{ phoneChanged: boolean }> {
  const input = Object.fromEntries(sent);
  return db.transaction(async (tx) => {
    await lockAccountPhones(tx, clientId);
    const row = await ownGig(tx, clientId, gigId, true);
    if (!row) throw gigNotFound();
    const { gig, bought } = row;
    const phoneChanged = fields.contactPhone !== gig.contactPhone;
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
      if (phoneChanged) await gigPhoneChanged(tx, clientId, gig.id, gig.contactPhone, contactPhone);
      return { phoneChanged };
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
    if (phoneChanged) await gigPhoneChanged(tx, clientId, gig.id, gig.contactPhone, fields.contactPhone);
    return { phoneChanged };
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

/**
 * The edit form's sender: the gig's owner (anyone else, whatever the id, gets 'Gig not found');
 * the operation learns the gig, since what its form may change depends on it.
 */
const EDITED_GIG: Access<{ user: SessionUser; gig: typeof gigs.$inferSelect; bought: boolean } & RequestParts> = {
  async resolve(context, route) {
    const caller = await withRequest(MY_GIGS).resolve(context, route);
    const row = await ownGig(context.services.db, caller.user.id, route.params.gigId ?? "", false);
    if (!row) throw gigNotFound();
    return { ...caller, gig: row.gig, bought: row.bought };
  },
};

/** The edit form sent: the gig saved; says what to tell its client, and whether a code went to its new number. */
export const saveGig = defineOperation({
  access: EDITED_GIG,
  // The schema depends on the gig, which only the database knows: every field while nobody has
  // bought it, the four left once someone has; and its deadline (an old one left as it is stays
  // valid). So the rule reads the gig, its schema parses the form, and `updateGig` checks again
  // under the row's lock (a bought gig's form with a bad value among the four is answered 400
  // before its locked fields are compared for the 409).
  input: ({ gig, bought, user, services }) =>
    (bought ? editBoughtGigSchema : editGigSchema)(
      earliestDeadline(gig.deadline, readerTime(user.timeZone, services.config).today),
      gigPhoneReader(services.config),
      gig.contactPhone,
    ),
  async run({ services, user, gig, input, form, clientIp, logger }) {
    const { phoneChanged } = await updateGig(services.db, user.id, gig.id, input, form ?? new FormData());
    const code = phoneChanged && input.contactPhone ? await codeForSavedGig(services, { userId: user.id, gigId: gig.id, clientIp, logger }) : NO_CODE;
    return { flash: GIG_EDIT_TEXTS.saved, code };
  },
});
