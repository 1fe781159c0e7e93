/**
 * The console's Gigs section (issue 22): Hide with a reason and Restore, each in one
 * transaction with its audit row and the owner told (bell + e-mail, with the reason). A hidden
 * gig leaves every public list and page (`notWithdrawn()`); its buyers keep the contact they
 * paid for. The form's POST empties the page cache.
 */
import { eq, sql } from "drizzle-orm";
import { gigModerationSchema, OPS_GIG_MESSAGES } from "#core/ops-moderation.ts";
import type { Transaction } from "../db/client.ts";
import { gigs } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/**
 * Takes gig `gig` (its row locked by the caller) down with `reason`: hidden, its audit row and
 * the owner's notice ("gig.hidden"). Also the take-down of an approved fake-request report
 * (decide-fake-request.ts).
 */
export async function hideGig(tx: Transaction, emit: Emit, operatorId: string, gig: { id: string; title: string; ownerId: string }, reason: string): Promise<void> {
  await tx.update(gigs).set({ hiddenAt: sql`now()`, hiddenReason: reason }).where(eq(gigs.id, gig.id));
  await emit(tx, { kind: "gig.hidden", operatorId, gigId: gig.id, gigTitle: gig.title, ownerId: gig.ownerId, reason });
}

export const moderateGig = defineOperation({
  access: operator,
  input: gigModerationSchema,
  async run({ services, user: operator, input: input }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [gig] = await tx
        .select({ id: gigs.id, title: gigs.title, ownerId: gigs.clientId, hiddenAt: gigs.hiddenAt })
        .from(gigs)
        .where(eq(gigs.id, input.gigId))
        .for("no key update");
      if (!gig) throw new AppError("not_found", "Gig not found");
      refuseOwnRecord(operator.id, gig.ownerId);
      if (input.intent === "hide") {
        if (gig.hiddenAt) throw new AppError("conflict", OPS_GIG_MESSAGES.alreadyHidden);
        await hideGig(tx, services.emit, operator.id, gig, input.reason);
        return { success: OPS_GIG_MESSAGES.hidden };
      }
      if (!gig.hiddenAt) throw new AppError("conflict", OPS_GIG_MESSAGES.notHidden);
      await tx.update(gigs).set({ hiddenAt: null, hiddenReason: null }).where(eq(gigs.id, gig.id));
      await services.emit(tx, { kind: "gig.restored", operatorId: operator.id, gigId: gig.id, gigTitle: gig.title, ownerId: gig.ownerId });
      return { success: OPS_GIG_MESSAGES.restored };
    });
  },
});
