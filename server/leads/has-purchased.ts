/** Whether someone holds a lead: a completed purchase of the gig by their digger profile. */
import { and, eq, sql } from "drizzle-orm";
import type { ClientContactDetails } from "#core/client-contact.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases, users } from "../db/schema.ts";
import { displayPhone } from "../phones/parse-phone.ts";

/** Whether the digger profile of user `userId` holds a completed purchase of gig `gigId`. */
export async function hasPurchased(db: Database, gigId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: leadPurchases.id })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(and(eq(leadPurchases.gigId, gigId), eq(diggerProfiles.userId, userId), eq(leadPurchases.status, "completed")));
  return Boolean(row);
}

/**
 * The client's contact details of gig `gigId` for user `userId`, only when that user's digger
 * profile holds a completed purchase of it (the gig page after checkout); null otherwise.
 */
export async function contactForBuyer(db: Database, gigId: string, userId: string): Promise<ClientContactDetails | null> {
  if (!(await hasPurchased(db, gigId, userId))) return null;
  const [row] = await db
    .select({
      name: users.name,
      email: users.email,
      phone: gigs.contactPhone,
      contactPreferences: gigs.contactPreferences,
      deleted: sql<boolean>`${users.deletedAt} is not null`,
    })
    .from(gigs)
    .innerJoin(users, eq(users.id, gigs.clientId))
    .where(eq(gigs.id, gigId));
  // An E.164 number as people write it ('+1 512 555 0123'); a free-text one of before as typed.
  return row ? { ...row, phone: row.phone === null ? null : displayPhone(row.phone) } : null;
}
