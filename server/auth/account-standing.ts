/**
 * Whether an account may have a session: a deleted account (awaiting its purge) and a
 * suspended one (issue 22) may not, by any sign-in method. Read by Better Auth's session hook.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";

export type AccountStanding = "good" | "deleted" | "suspended";

export async function accountStanding(db: Database, userId: string): Promise<AccountStanding> {
  const [user] = await db.select({ deletedAt: users.deletedAt, suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId));
  if (!user || user.deletedAt !== null) return "deleted";
  return user.suspendedAt === null ? "good" : "suspended";
}
