/**
 * Signing up at /auth with e-mail and password. Better Auth makes the account (its hooks
 * check the name, the type and the 18+ confirmation: endpoint-rules.ts) and signs it in.
 */
import type { z } from "zod";
import { signUpSchema } from "#core/sign-in-schemas.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** The answer to a sign-up for an address that has an account: the same for anyone who asks. */
export const SIGN_UP_CHECK_INBOX = "Check your inbox: we have sent you an e-mail about your account.";

/**
 * Makes the account and signs it in (`signedIn`). For an address that has an account
 * already, its owner is e-mailed instead and nobody is signed in.
 */
async function signUp(api: AuthApi, { fullName, email, password, userType, timeZone }: z.output<typeof signUpSchema>): Promise<{ signedIn: boolean; setCookies: string[] }> {
  const result = await api<{ token: string | null }>("/sign-up/email", {
    name: fullName,
    email,
    password,
    userType,
    ageConfirmed: true,
    // The browser's zone: checked and kept with the new account (endpoint-rules.ts, auth.ts).
    timeZone,
  });
  if (!result.ok) throw authFailure(result);
  return { signedIn: Boolean(result.data?.token), setCookies: result.setCookies };
}

export const signUpForm = defineOperation({
  access: anyone,
  input: signUpSchema,
  run: ({ authApi, input }) => signUp(authApi, input),
});
