/**
 * /dev/clock, local mode only (anywhere else the 404 page, as /dev/mail): moves one purchase's
 * reply-guarantee times back 48 hours and runs the guarantee's check for it, so that a browser
 * test (whose server runs its own embedded database in another process) and a developer can see
 * what happens 48 hours after a digger's first message (issue 48). The purchase is named by its
 * id or by its thread's (the lead card's Message link).
 */
import { eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { GUARANTEE_WAIT_HOURS } from "#core/reply-guarantee.ts";
import { leadPurchases, threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { settleGuarantee } from "./settle-guarantee.ts";
import { isUuid } from "#core/ids.ts";

const notFound = () => new AppError("not_found", "Not found");

const clockSchema = z.object({ id: z.unknown().transform((id) => (isUuid(id) ? id : null)) });

/** GET: the page (local mode only). */
export const devClockPage = defineOperation({
  access: anyone,
  async run({ services: { config } }) {
    if (config.mode !== "local") throw notFound();
    return { hours: GUARANTEE_WAIT_HOURS };
  },
});

/** POST `id` (a purchase's or its thread's): its guarantee's times 48 hours back, then the check. */
export const moveGuaranteeClock = defineOperation({
  access: anyone,
  input: clockSchema,
  async run({ services, input }) {
    const { config, db } = services;
    if (config.mode !== "local") throw notFound();
    if (!input.id) throw new AppError("invalid_input", "Give a purchase's or a thread's id");
    const id = input.id;
    const back = sql`make_interval(hours => ${GUARANTEE_WAIT_HOURS}::int)`;
    const purchaseId = await db.transaction(async (tx) => {
      const [thread] = await tx
        .select({ purchaseId: threads.purchaseId })
        .from(threads)
        .where(or(eq(threads.id, id), eq(threads.purchaseId, id)));
      if (!thread) throw new AppError("not_found", "No purchase or thread with this id");
      await tx
        .update(leadPurchases)
        .set({ purchasedAt: sql`${leadPurchases.purchasedAt} - ${back}`, guaranteeDueAt: sql`${leadPurchases.guaranteeDueAt} - ${back}` })
        .where(eq(leadPurchases.id, thread.purchaseId));
      await tx
        .update(threads)
        .set({ diggerFirstAt: sql`${threads.diggerFirstAt} - ${back}` })
        .where(eq(threads.purchaseId, thread.purchaseId));
      return thread.purchaseId;
    });
    // The guarantee's own check, as its job would run it now (it also pauses a lead nobody can reach).
    const settled = await settleGuarantee(services, purchaseId);
    const what = settled ? `: ${settled.outcome}${settled.paused ? ", its gig paused" : ""}` : ": not due (not covered, or settled before)";
    return { success: `Moved the guarantee of purchase ${purchaseId} back ${GUARANTEE_WAIT_HOURS} hours${what}` };
  },
});
