/** My Gigs: a consumer's own gigs, and opening or closing one of them (only its owner may). */
import { and, desc, eq, sql } from "drizzle-orm";
import { GIG_STATUS_FAILED, gigStatusSchema } from "#core/gig-schema.ts";
import type { OwnGig } from "#core/gig-types.ts";
import { isUuid } from "#core/ids.ts";
import type { Database } from "../db/client.ts";
import { categories, gigs, users } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, toPage, type Page } from "../pagination.ts";

/** The My Gigs page: a page of the consumer's gigs, and whether they are published yet. */
export async function myGigsPage(db: Database, consumerId: string, cursor: string | null) {
  const [page, emailConfirmed] = await Promise.all([listMyGigs(db, consumerId, cursor), isEmailConfirmed(db, consumerId)]);
  return { page, emailConfirmed };
}

/** Whether the user confirmed their e-mail: until then their gigs are saved but not published. */
async function isEmailConfirmed(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ confirmed: users.emailVerified }).from(users).where(eq(users.id, userId));
  return row?.confirmed ?? false;
}

async function listMyGigs(db: Database, consumerId: string, cursor: string | null, size = PAGE_SIZE): Promise<Page<OwnGig>> {
  const after = decodeCursor(cursor, 2);
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
    })
    .from(gigs)
    .innerJoin(categories, eq(categories.id, gigs.categoryId))
    .where(
      and(
        eq(gigs.consumerId, consumerId),
        after && typeof after[0] === "string" && isUuid(after[1])
          ? sql`(${gigs.createdAt}, ${gigs.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(size + 1);
  return toPage(rows, size, (row) => [row.createdAt, row.id]);
}

/** My Gigs' switch: opens or closes one of the consumer's gigs (only its owner may); says which. */
export async function changeGigStatus(db: Database, consumerId: string, form: FormData): Promise<{ success: string }> {
  const { status, gigId } = parsedInput(gigStatusSchema, {
    intent: form.get("intent"),
    status: form.get("status"),
    gigId: form.get("gigId"),
  });
  const updated = gigId
    ? await db
        .update(gigs)
        .set({ status })
        .where(and(eq(gigs.id, gigId), eq(gigs.consumerId, consumerId)))
        .returning({ id: gigs.id })
    : [];
  if (updated.length === 0) throw new AppError("not_found", GIG_STATUS_FAILED);
  return { success: status === "closed" ? "Gig closed successfully" : "Gig reopened successfully" };
}
