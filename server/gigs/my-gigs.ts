/** My Gigs: a client's own gigs, and opening or closing one of them (only its owner may). */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { gigStatusSchema } from "#core/gig-schema.ts";
import { GIG_FILLED_TEXTS, GIG_STATUS_FAILED } from "#core/gig-texts.ts";
import type { OwnGig } from "#core/gig-types.ts";
import { enqueueLeadAlerts } from "../alerts/fan-out.ts";
import { hasCompletedPurchase } from "../leads/spots.ts";
import type { Database } from "../db/client.ts";
import type { Emit } from "../events/emit.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { categories, diggerProfiles, gigs, hires, leadPurchases, quotes, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { sendConfirmationAgain } from "../sign-in/confirm-email.ts";
import { defineOperation } from "../operation.ts";
import { MY_GIGS } from "./access.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";

/** The My Gigs page: a page of the client's gigs, and whether they are published yet. */
export async function myGigsPage(db: Database, clientId: string, cursor: string | null) {
  const [page, emailConfirmed] = await Promise.all([listMyGigs(db, clientId, cursor), isEmailConfirmed(db, clientId)]);
  return { page, emailConfirmed };
}

/** Whether the user confirmed their e-mail: until then their gigs are saved but not published. */
async function isEmailConfirmed(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ confirmed: users.emailVerified }).from(users).where(eq(users.id, userId));
  return row?.confirmed ?? false;
}

async function listMyGigs(db: Database, clientId: string, cursor: string | null, size = PAGE_SIZE): Promise<Page<OwnGig>> {
  const after = decodeCursor(cursor, TIMESTAMP_UUID_CURSOR);
  const rows = await db
    .select({
      id: gigs.id,
      title: gigs.title,
      description: gigs.description,
      status: gigs.status,
      budgetMinCents: gigs.budgetMinCents,
      budgetMaxCents: gigs.budgetMaxCents,
      categoryName: categories.name,
      createdAt: exactTimestamp(gigs.createdAt),
      purchaseCount: gigs.purchaseCount,
      filled: sql<boolean>`${gigs.filledAt} is not null`,
      hiddenReason: gigs.hiddenReason,
      deletable: sql<boolean>`not ${hasCompletedPurchase(gigs.id)}`.mapWith(Boolean),
      // Compare Quotes ({n}) (issue 33): quotes open and not past their end.
      openQuotes: sql<number>`(select count(*)::int from ${quotes} where ${quotes.gigId} = ${gigs.id} and ${quotes.status} = 'open' and ${quotes.expiresAt} > now())`.mapWith(Number),
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(
      and(
        eq(gigs.clientId, clientId),
        isNull(gigs.deletedAt),
        after ? sql`(${gigs.createdAt}, ${gigs.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(size + 1);
  return toPage(rows, size, (row) => [row.createdAt, row.id]);
}

/**
 * My Gigs' switch: opens or closes one of the client's gigs (only its owner may); says which.
 * Closing with `filled=yes` a gig that has completed purchases records it as filled in the same
 * transaction, and tells each digger who bought it (at most 5: the bell and an e-mail each) in
 * that transaction too. `filled` on a gig without purchases just closes it. Reopening clears it,
 * and enqueues the gig's lead alerts in the same transaction (server/alerts/fan-out.ts).
 */
export async function changeGigStatus(
  { db, emit, jobs }: { db: Database; emit: Emit; jobs: JobQueue },
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
    if (status === "open" && gig.published) await enqueueLeadAlerts(jobs, tx, gig.id);
    if (status !== "closed" || !filled) return { gig };
    // The row is locked by the update: no purchase completes between this read and the commit.
    const buyers = await tx
      .select({
        userId: users.id,
        // Told of an accepted quote's outcome already (issue 33: its digger, and every other buyer not marked hired): no second e-mail about it.
        told: sql<boolean>`exists (select 1 from ${quotes} where ${quotes.gigId} = ${leadPurchases.gigId} and ${quotes.status} = 'accepted' and (${quotes.diggerId} = ${leadPurchases.diggerId} or not exists (select 1 from ${hires} where ${hires.gigId} = ${leadPurchases.gigId} and ${hires.diggerId} = ${leadPurchases.diggerId})))`,
      })
      .from(leadPurchases)
      .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
      .innerJoin(users, eq(users.id, diggerProfiles.userId))
      .where(and(eq(leadPurchases.gigId, gig.id), eq(leadPurchases.status, "completed")));
    if (buyers.length === 0) return { gig };
    const marked = await tx
      .update(gigs)
      .set({ filledAt: sql`now()` })
      .where(and(eq(gigs.id, gig.id), isNull(gigs.filledAt)))
      .returning({ id: gigs.id });
    // Only the first 'filled' tells the diggers: closing an already filled gig again sends nothing.
    const untold = buyers.filter((buyer) => !buyer.told);
    if (marked.length > 0 && untold.length > 0) {
      await emit(tx, { kind: "gig.filled", gigId: gig.id, gigTitle: gig.title, buyerUserIds: untold.map((buyer) => buyer.userId) });
    }
    return { gig, filled: true };
  });
  if (!result) throw new AppError("not_found", GIG_STATUS_FAILED);
  if (status === "open") return { success: "Gig reopened successfully" };
  return { success: "filled" in result ? GIG_FILLED_TEXTS.closedFilled : "Gig closed successfully" };
}

/** /my-gigs: a page of the signed-in user's gigs (from `?cursor=`), and whether they are published yet. */
export const myGigs = defineOperation({
  access: MY_GIGS,
  async run({ services: { db }, user, url }) {
    const { page, emailConfirmed } = await myGigsPage(db, user.id, url.searchParams.get("cursor"));
    return { page, emailConfirmed, now: new Date().toISOString() };
  },
});

/** My Gigs' switch (`changeGigStatus`): open or close one of my gigs. */
export const switchGigStatus = defineOperation({
  access: MY_GIGS,
  input: gigStatusSchema,
  run: ({ services, user, input }) => changeGigStatus(services, user.id, input),
});

/** My Gigs' banner: a new confirmation e-mail (an unconfirmed client's gigs are not published). */
export const resendGigsConfirmation = defineOperation({
  access: MY_GIGS,
  run: ({ authApi, user }) => sendConfirmationAgain(authApi, user),
});
