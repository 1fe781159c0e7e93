/**
 * Signing in at /auth with e-mail and password. Better Auth checks the password and applies
 * the per-address limits (endpoint-rules.ts); the cookies it sets come back for the browser.
 * The second step of an account with two-factor on is in two-factor.ts.
 */
import type { z } from "zod";
import type { signInSchema } from "#core/sign-in-schemas.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";

/** Checks the password. An account with two-factor on is not signed in yet: it wants its code (`twoFactor`). */
export async function signInWithPassword(api: AuthApi, { email, password }: z.output<typeof signInSchema>): Promise<{ twoFactor: boolean; setCookies: string[] }> {
  const result = await api<{ twoFactorRedirect?: boolean }>("/sign-in/email", { email, password, rememberMe: true });
  if (!result.ok) throw authFailure(result);
  return { twoFactor: result.data?.twoFactorRedirect === true, setCookies: result.setCookies };
}
