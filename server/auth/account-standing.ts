/**
 * Whether an account may have a session: a deleted account (awaiting its purge) and a
 * suspended one (issue 22) may not, by any sign-in method. Read by Better Auth's session hook.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";

export type AccountStanding = "good" | "deleted" | "suspended";

/**
 * `locked`: read under a share lock, so that a suspension or deletion in progress (which locks
 * the row FOR UPDATE, then deletes the account's sessions) is waited for and seen.
 */
export async function accountStanding(db: Database, userId: string, { locked = false } = {}): Promise<AccountStanding> {
  const query = db.select({ deletedAt: users.deletedAt, suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId));
  const [user] = locked ? await query.for("share") : await query;
  if (!user || user.deletedAt !== null) return "deleted";
  return user.suspendedAt === null ? "good" : "suspended";
}
