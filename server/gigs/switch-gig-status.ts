/** My Gigs' switch: opening or closing one of my gigs (only its owner may). */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { gigStatusSchema } from "#core/gig-schema.ts";
import { GIG_FILLED_TEXTS, GIG_STATUS_FAILED } from "#core/gig-texts.ts";
import type { Database } from "../db/client.ts";
import type { Emit } from "../events/emit.ts";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { MY_GIGS } from "./access.ts";

/**
 * My Gigs' switch: opens or closes one of the client's gigs (only its owner may); says which.
 * Closing with `filled=yes` a gig that has completed purchases records it as filled in the same
 * transaction, and tells each digger who bought it (at most 5: the bell and an e-mail each) in
 * that transaction too. `filled` on a gig without purchases just closes it. Reopening clears it,
 * and starts the gig's lead alerts in the same transaction (the event "gig.visible").
 */
async function changeGigStatus(
  { db, emit }: { db: Database; emit: Emit },
  clientId: string,
  { status, gigId, filled }: z.output<typeof gigStatusSchema>,
): Promise<{ success: string }> {
  if (!gigId) throw new AppError("not_found", GIG_STATUS_FAILED);
  const result = await db.transaction(async (tx) => {
    const [gig] = await tx
      .update(gigs)
      .set(status === "open" ? { status, filledAt: null } : { status })
      .where(and(eq(gigs.id, gigId), eq(gigs.clientId, clientId), isNull(gigs.deletedAt)))
      .returning({ id: gigs.id, title: gigs.title, published: gigs.published });
    if (!gig) return null;
    // Reopened and published, it is visible again: diggers who match now and never heard of it are alerted.
    if (status === "open" && gig.published) await emit(tx, { kind: "gig.visible", gigId: gig.id });
    if (status !== "closed" || !filled) return { gig };
    // The row is locked by the update: no purchase completes between this read and the commit.
    const buyers = await tx
      .select({ userId: diggerProfiles.userId })
      .from(leadPurchases)
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
      .where(and(eq(leadPurchases.gigId, gig.id), eq(leadPurchases.status, "completed")));
    if (buyers.length === 0) return { gig };
    const marked = await tx
      .update(gigs)
      .set({ filledAt: sql`now()` })
      .where(and(eq(gigs.id, gig.id), isNull(gigs.filledAt)))
      .returning({ id: gigs.id });
    // Only the first 'filled' tells the diggers: closing an already filled gig again sends nothing.
    // Who is told is the event's (server/events/registry.ts): a buyer told of a quote's outcome is not told again.
    if (marked.length > 0) await emit(tx, { kind: "gig.filled", gigId: gig.id, gigTitle: gig.title, buyerUserIds: buyers.map((buyer) => buyer.userId) });
    return { gig, filled: true };
  });
  if (!result) throw new AppError("not_found", GIG_STATUS_FAILED);
  if (status === "open") return { success: "Gig reopened successfully" };
  return { success: "filled" in result ? GIG_FILLED_TEXTS.closedFilled : "Gig closed successfully" };
}

/** My Gigs' switch (`changeGigStatus`): open or close one of my gigs. */
export const switchGigStatus = defineOperation({
  access: MY_GIGS,
  input: gigStatusSchema,
  run: ({ services, user, input }) => changeGigStatus(services, user.id, input),
});
