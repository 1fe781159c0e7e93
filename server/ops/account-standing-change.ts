/**
 * Suspend and Reinstate (issue 22), each in one transaction: the account's standing, its
 * sessions (a suspension signs the user out everywhere at once), the audit row and the e-mail
 * to the user. The database does the rest: a trigger on users.suspended_at takes the open gigs
 * and the digger profile off every public page and brings them back (migration 0021); Better
 * Auth's session hook refuses every sign-in of a suspended account (server/auth/auth.ts).
 * The form's POST empties the page cache as every write does (server/page-cache.ts).
 */
import { eq, sql } from "drizzle-orm";
import { OPS_USER_MESSAGES, standingChangeSchema } from "#core/ops-users.ts";
import { sessions, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { plausibleUserId } from "./user-page.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** Suspend or Reinstate the account in the address (`/ops/users/{userId}`), with a reason. */
export const changeAccountStanding = defineOperation({
  access: operator,
  input: standingChangeSchema,
  async run({ services, user: operator, input: { intent, reason }, params }): Promise<{ success: string }> {
    const userId = params.userId ?? "";
    if (!plausibleUserId(userId)) throw new AppError("not_found", "Page not found");
    return services.db.transaction(async (tx) => {
      const [user] = await tx
        .select({ id: users.id, email: users.email, operatorSince: users.operatorSince, suspendedAt: users.suspendedAt, deletedAt: users.deletedAt })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!user) throw new AppError("not_found", "Page not found");
      if (user.deletedAt !== null) throw new AppError("conflict", OPS_USER_MESSAGES.deleted);
      if (intent === "suspend") {
        if (user.id === operator.id) throw new AppError("forbidden", OPS_USER_MESSAGES.notSelf);
        if (user.operatorSince !== null) throw new AppError("forbidden", OPS_USER_MESSAGES.notOperator);
        if (user.suspendedAt !== null) throw new AppError("conflict", OPS_USER_MESSAGES.alreadySuspended);
        await tx.update(users).set({ suspendedAt: sql`now()`, suspendedReason: reason }).where(eq(users.id, user.id));
        // Signed out everywhere at once: the next request of any of their browsers is a visitor's.
        await tx.delete(sessions).where(eq(sessions.userId, user.id));
      } else {
        refuseOwnRecord(operator.id, user.id);
        if (user.suspendedAt === null) throw new AppError("conflict", OPS_USER_MESSAGES.notSuspended);
        await tx.update(users).set({ suspendedAt: null, suspendedReason: null }).where(eq(users.id, user.id));
      }
      // The audit row and the user's e-mail (events/registry.ts).
      await services.emit(tx, { kind: intent === "suspend" ? "account.suspended" : "account.reinstated", operatorId: operator.id, userId: user.id, reason });
      return { success: intent === "suspend" ? OPS_USER_MESSAGES.suspended : OPS_USER_MESSAGES.reinstated };
    });
  },
});
