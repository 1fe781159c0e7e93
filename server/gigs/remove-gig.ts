/**
 * Deleting one of my gigs (issue 23): possible until a purchase completes, whatever checkouts
 * were started (issue 30: starting and cancelling one kept its client from deleting it); then
 * it can only be closed (decision 0030).
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { GIG_EDIT_TEXTS } from "#core/gig-texts.ts";
import { gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { MY_GIGS } from "./access.ts";
import { forgetUnusedVerification } from "../phones/forget-verification.ts";
import { lockAccountPhones } from "../phones/phone-lock.ts";
import { gigNotFound, ownGig } from "./gig-owner.ts";
import { gigPhoneChanged } from "./gig-phone.ts";

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
async function deleteGig(services: Pick<AppServices, "db" | "payments" | "logger">, clientId: string, gigId: string): Promise<void> {
  const pending = await services.db.transaction(async (tx) => {
    await lockAccountPhones(tx, clientId);
    const row = await ownGig(tx, clientId, gigId, true);
    if (!row) throw gigNotFound();
    if (row.completed) throw new AppError("conflict", GIG_EDIT_TEXTS.notDeletable);
    // Its number goes with it: its verification unless still given elsewhere, and a code waiting for it.
    const numberGone = () => gigPhoneChanged(tx, clientId, row.gig.id, row.gig.contactPhone, null);
    if (!row.anyPurchase) {
      // Its code first (the row's gig_id goes null with the gig), its verification once it is gone.
      await numberGone();
      await tx.delete(gigs).where(eq(gigs.id, row.gig.id));
      await forgetUnusedVerification(tx, clientId, row.gig.contactPhone);
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
    await numberGone();
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

/** Delete (intent=delete, from the confirmation of My Gigs, the gig page or the edit page). */
export const removeGig = defineOperation({
  access: MY_GIGS,
  async run({ services, user, params }) {
    await deleteGig(services, user.id, params.gigId ?? "");
    return { flash: GIG_EDIT_TEXTS.deleted };
  },
});
