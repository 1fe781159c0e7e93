/**
 * Two-factor authentication with an authenticator app (TOTP), through Better Auth: what its
 * verbs share. The code asked for at sign-in (verify-totp.ts, verify-backup-code.ts) and at
 * the end of the set-up (confirm-two-factor.ts) is `verifyTwoFactorCode`; /account's other
 * verbs are start-two-factor.ts, turn-off-two-factor.ts and new-backup-codes.ts.
 */
import type { z } from "zod";
import type { passwordConfirmationSchema, twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { AppError } from "../errors.ts";
import { authFailure, type AuthApi, type AuthResult } from "../auth/api.ts";
import { rememberTimeZone } from "../auth/time-zone.ts";
import type { Database } from "../db/client.ts";

/** The password typed again (`passwordConfirmationSchema`), for each change of the set-up. */
export type PasswordConfirmation = z.output<typeof passwordConfirmationSchema>;

/** The data of a call that succeeded; a success without it is a fault. */
export function dataOf<T>(result: AuthResult<T>): T {
  if (!result.ok) throw authFailure(result);
  if (!result.data) throw new AppError("failed", "Something went wrong. Please try again.", { status: result.status });
  return result.data;
}

export type SecondFactor = "totp" | "backup-code";

/**
 * A code from the authenticator app, or a backup code: the second step of signing in (then the
 * browser's zone becomes the account's, issue 47), or the end of the set-up.
 */
export async function verifyTwoFactorCode(
  api: AuthApi,
  db: Database,
  factor: SecondFactor,
  { code, timeZone }: z.output<typeof twoFactorCodeSchema>,
): Promise<{ setCookies: string[] }> {
  const result = await api<{ user?: { id: string } }>(factor === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code", { code });
  if (!result.ok) throw authFailure(result);
  if (result.data?.user) await rememberTimeZone(db, result.data.user.id, timeZone);
  return { setCookies: result.setCookies };
}
