/**
 * Deleting an account (spec section 1: "account deletion on request with data deleted within
 * 30 days"). The request takes effect at once, in one transaction: the account is marked
 * deleted (no new session can start, see auth.ts), every session ends, the digger profile is
 * hidden from every public query, and the user's open gigs close (browse lists only open
 * gigs; the gig page leaves out gigs of deleted accounts). The personal data itself is
 * removed by the purge (purge.ts) once the configured delay has passed. The account page's
 * form is delete-account.ts.
 *
 * Phones (issue 49) go at the request already: the account's number, the numbers it verified
 * (their gigs lose the tick by trigger; a purchase keeps its own record of the tick it was bought
 * with) and the code waiting, so that no code sent before can verify anything after it.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, phoneCodes, phoneVerifications, sessions, users } from "../db/schema.ts";

/** Carries out a deletion request; asking twice changes nothing more. */
export async function requestAccountDeletion(db: Database, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ deletedAt: sql`now()`, phone: null })
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    await tx.delete(phoneCodes).where(eq(phoneCodes.userId, userId));
    await tx.delete(phoneVerifications).where(eq(phoneVerifications.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx
      .update(gigs)
      .set({ status: "closed" })
      .where(and(eq(gigs.clientId, userId), eq(gigs.status, "open")));
    await tx
      .update(diggerProfiles)
      .set({ hiddenAt: sql`now()` })
      .where(and(eq(diggerProfiles.userId, userId), isNull(diggerProfiles.hiddenAt)));
  });
}
