/**
 * 'Keep it open for more diggers' (issue 47): a hire takes a gig's lead off sale (the rule's
 * `hired`, server/leads/for-sale.ts); its client may put it back on sale for a job that needs
 * several trades. Only the owner (anyone else: 'Gig not found'), only while a hire holds it (409).
 * The gig is visible again: the event "gig.visible" starts its lead alerts (a digger already
 * alerted of it is not told twice).
 */
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { GIG_HIRED_TEXTS } from "#core/gig-texts.ts";
import { isUuid } from "#core/ids.ts";
import type { AppServices } from "../context.ts";
import { gigs } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { MY_GIGS } from "./access.ts";
import { gigNotFound } from "./gig-owner.ts";

const keepOpenSchema = z.object({ gigId: z.unknown().optional().transform((id) => (isUuid(id) ? id : null)) });

/** Keeps client `clientId`'s hired gig `gigId` on sale for more diggers; a second time changes nothing. */
async function keepGigOpen({ db, emit }: Pick<AppServices, "db" | "emit">, clientId: string, gigId: string | null): Promise<{ success: string }> {
  if (!gigId) throw gigNotFound();
  await db.transaction(async (tx) => {
    // The row's lock: a hire removed at the same time (its trigger writes this row) waits, or is seen.
    const [gig] = await tx
      .select({ hired: gigs.hired, openForMore: gigs.openForMore, status: gigs.status, published: gigs.published })
      .from(gigs)
      .where(and(eq(gigs.id, gigId), eq(gigs.clientId, clientId), isNull(gigs.deletedAt)))
      .for("no key update");
    if (!gig) throw gigNotFound();
    if (!gig.hired) throw new AppError("conflict", GIG_HIRED_TEXTS.notHired);
    if (gig.openForMore) return;
    await tx.update(gigs).set({ openForMore: true }).where(eq(gigs.id, gigId));
    if (gig.status === "open" && gig.published) await emit(tx, { kind: "gig.visible", gigId });
  });
  return { success: GIG_HIRED_TEXTS.keptOpen };
}

/** My Gigs' (and the accepted quote's) 'Keep it open for more diggers': intent "keep-open", the form's `gigId`. */
export const keepOpen = defineOperation({
  access: MY_GIGS,
  input: keepOpenSchema,
  run: ({ services, user, input }) => keepGigOpen(services, user.id, input.gigId),
});
