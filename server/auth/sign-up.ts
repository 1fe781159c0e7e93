/**
 * Signing up at /auth with e-mail and password. Better Auth makes the account (its hooks
 * check the name, the type and the 18+ confirmation: endpoint-rules.ts) and signs it in.
 */
import { signUpSchema } from "#core/auth-schemas.ts";
import { parsedInput } from "../errors.ts";
import { authFailure, type AuthApi } from "./api.ts";

/** The answer to a sign-up for an address that has an account: the same for anyone who asks. */
export const SIGN_UP_CHECK_INBOX = "Check your inbox: we have sent you an e-mail about your account.";

/**
 * Makes the account and signs it in (`signedIn`). For an address that has an account
 * already, its owner is e-mailed instead and nobody is signed in.
 */
export async function signUp(api: AuthApi, form: FormData): Promise<{ signedIn: boolean; setCookies: string[] }> {
  const { fullName, email, password, userType } = parsedInput(signUpSchema, Object.fromEntries(form));
  const result = await api<{ token: string | null }>("/sign-up/email", {
    name: fullName,
    email,
    password,
    userType,
    ageConfirmed: true,
  });
  if (!result.ok) throw authFailure(result);
  return { signedIn: Boolean(result.data?.token), setCookies: result.setCookies };
}
