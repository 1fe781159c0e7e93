/** Whether someone holds a lead: a completed purchase of the gig by their digger profile. */
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerProfiles, leadPurchases } from "../db/schema.ts";

/** Whether the digger profile of user `userId` holds a completed purchase of gig `gigId`. */
export async function hasPurchased(db: Database, gigId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: leadPurchases.id })
    .from(leadPurchases)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(and(eq(leadPurchases.gigId, gigId), eq(diggerProfiles.userId, userId), eq(leadPurchases.status, "completed")));
  return Boolean(row);
}
