/**
 * Whether an account may have a session: a deleted account (awaiting its purge) and a
 * suspended one (issue 22) may not, by any sign-in method. Read by Better Auth's session hook,
 * and by the password sign-in's before-hook (a suspended account's answer, issue 30).
 */
import { APIError } from "better-auth/api";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { ACCOUNT_SUSPENDED } from "#core/sign-in-errors.ts";
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

/** The one answer to signing in to a suspended account, by any method and at any step. */
export const accountSuspended = () => new APIError("FORBIDDEN", { message: ACCOUNT_SUSPENDED, code: "ACCOUNT_SUSPENDED" });

/** Whether the account with this e-mail address (lower case) is suspended. */
export async function suspendedAddress(db: Database, email: string): Promise<boolean> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt), isNotNull(users.suspendedAt)))
    .limit(1);
  return user !== undefined;
}
