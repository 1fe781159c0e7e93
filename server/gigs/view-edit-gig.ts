/**
 * /my-gigs/{id}/edit, the page (issue 23): the gig's values as its form shows them, what may
 * still change, whether it may be deleted, whether its phone is verified, and the categories to
 * choose from. Saving is save-gig.ts, deleting remove-gig.ts, 'Verify this number' verify-gig-phone.ts.
 */
import type { GigFormValues } from "#core/gig-types.ts";
import { phoneStatus } from "#core/phone-verification.ts";
import type { Database } from "../db/client.ts";
import { listTopLevelCategories } from "../categories.ts";
import { defineOperation } from "../operation.ts";
import { displayPhone } from "../phones/parse-phone.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { readerTime } from "../reader-time.ts";
import { MY_GIGS } from "./access.ts";
import { dollars, earliestDeadline } from "./edit-form.ts";
import { gigNotFound, ownGig } from "./gig-owner.ts";

/**
 * The edit page: the gig's values as its form shows them (its phone as its reader writes it: a
 * free-text number of before as it was typed), what may still change, and its phone's status.
 */
async function editGigPage(db: Database, clientId: string, gigId: string, today: string, verificationOn: boolean) {
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
    contactPhone: gig.contactPhone === null ? "" : displayPhone(gig.contactPhone),
  };
  return {
    id: gig.id,
    values,
    locked: row.bought,
    deletable: !row.completed,
    minDeadline: earliestDeadline(gig.deadline, today),
    phoneStatus: phoneStatus(verificationOn, gig.contactPhone !== null, gig.phoneVerifiedAt),
  };
}

/** /my-gigs/{id}/edit: the gig's form and the categories to choose from. */
export const editGigForm = defineOperation({
  access: MY_GIGS,
  async run({ services: { db, config }, user, params }) {
    // The date picker's first day is the reader's today (issue 47).
    const today = readerTime(user.timeZone, config).today;
    const [gig, categories] = await Promise.all([editGigPage(db, user.id, params.gigId ?? "", today, phoneVerificationOn(config)), listTopLevelCategories(db)]);
    return { gig, categories };
  },
});
