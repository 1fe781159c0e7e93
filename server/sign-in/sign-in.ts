/**
 * Signing in at /auth with e-mail and password. Better Auth checks the password and applies
 * the per-address limits (endpoint-rules.ts); the cookies it sets come back for the browser.
 * The second step of an account with two-factor on is in two-factor.ts.
 */
import type { z } from "zod";
import { signInSchema } from "#core/sign-in-schemas.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { rememberTimeZone } from "../auth/time-zone.ts";
import type { Database } from "../db/client.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/**
 * Checks the password. An account with two-factor on is not signed in yet: it wants its code
 * (`twoFactor`), and its zone is kept after that step (two-factor.ts). Once signed in, the
 * browser's zone is the account's (issue 47).
 */
async function signInWithPassword(api: AuthApi, db: Database, { email, password, timeZone }: z.output<typeof signInSchema>): Promise<{ twoFactor: boolean; setCookies: string[] }> {
  const result = await api<{ twoFactorRedirect?: boolean; user?: { id: string } }>("/sign-in/email", { email, password, rememberMe: true });
  if (!result.ok) throw authFailure(result);
  const twoFactor = result.data?.twoFactorRedirect === true;
  if (!twoFactor && result.data?.user) await rememberTimeZone(db, result.data.user.id, timeZone);
  return { twoFactor, setCookies: result.setCookies };
}

export const signInForm = defineOperation({
  access: anyone,
  input: signInSchema,
  run: ({ authApi, services: { db }, input }) => signInWithPassword(authApi, db, input),
});
