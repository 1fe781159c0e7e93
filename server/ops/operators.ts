/** Granting and revoking the operator role (the command in operator-cli.ts), written to the audit trail. */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import { emitRecord } from "../events/emit.ts";

/** Who the audit trail names for what the command line did. */
export const CLI_OPERATOR = "cli";

export const twoFactorFirst = (email: string) =>
  `${email} is not an operator: enrol two-factor authentication on /account first (the console opens only with it), then grant again.`;

/**
 * `requireTwoFactor` (production): the role goes only to an account with two-factor
 * authentication on. Otherwise whoever holds the password would enrol it at the console's
 * door, and the second factor would be theirs (issue 30). Local mode's demo operator has none.
 */
export async function setOperator(
  db: Database,
  email: string,
  grant: boolean,
  { requireTwoFactor = false } = {},
): Promise<{ ok: boolean; message: string }> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, operatorSince: users.operatorSince, twoFactorEnabled: users.twoFactorEnabled })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email.trim()})`, isNull(users.deletedAt)))
      .for("update");
    if (!user) return { ok: false, message: `No account has the e-mail ${email}.` };
    if (grant === (user.operatorSince !== null)) {
      return { ok: true, message: `${email} ${grant ? "is already" : "is not"} an operator.` };
    }
    if (grant && requireTwoFactor && !user.twoFactorEnabled) return { ok: false, message: twoFactorFirst(email) };
    await tx.update(users).set({ operatorSince: grant ? sql`now()` : null }).where(eq(users.id, user.id));
    // A revoked operator's open sessions end: the console must not stay open in a tab.
    if (!grant) await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await emitRecord(tx, { kind: "operator.role", operatorId: CLI_OPERATOR, userId: user.id, granted: grant });
    return { ok: true, message: grant ? `${email} is now an operator.` : `${email} is no longer an operator.` };
  });
}
