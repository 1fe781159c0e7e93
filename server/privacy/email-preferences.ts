/**
 * E-mail preferences (spec section 1: opt-out of promotional but not transactional e-mail):
 * one switch for promotional e-mail, set on the account page, or turned off by the signed
 * one-click unsubscribe link of every promotional e-mail (unsubscribe.ts). What else is
 * e-mailed is chosen in How to reach me (server/reach/).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { emailPreferencesSchema } from "#core/privacy-schemas.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { z } from "zod";

export async function promotionalEmailEnabled(db: Database, userId: string): Promise<boolean> {
  const [user] = await db.select({ on: users.promotionalEmail }).from(users).where(eq(users.id, userId));
  return user?.on ?? false;
}

/** The account page's switch: saves it, and answers what it is now. */
export async function saveEmailPreferences(
  db: Database,
  userId: string,
  { promotionalEmail }: z.output<typeof emailPreferencesSchema>,
): Promise<{ promotionalEmail: boolean }> {
  await db
    .update(users)
    .set({ promotionalEmail })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return { promotionalEmail };
}
