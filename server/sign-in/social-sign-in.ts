/**
 * Starting sign-in (or sign-up) with Google, GitHub or LinkedIn from /auth: Better Auth
 * answers with the provider's address to send the browser to. The account type and the
 * 18+ confirmation chosen on the form, and the browser's time zone, travel in short-lived
 * cookies to the callback (auth.ts decides there whether a new account may be made).
 */
import { z } from "zod";
import { safeRedirect } from "#core/redirect.ts";
import { OAUTH_PROVIDERS, type Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { SIGNUP_AGE_COOKIE, SIGNUP_TYPE_COOKIE } from "../auth/auth.ts";
import { readerZone, SIGNIN_ZONE_COOKIE } from "../auth/time-zone.ts";
import { PROVIDER_NAMES } from "../auth/providers.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/**
 * A social button's form: the provider, what a new account becomes (anything but "digger" is a
 * client's) and the Sign Up tab's 18+ box (ticked or not).
 */
const socialSignInSchema = z.object({
  provider: z.enum(OAUTH_PROVIDERS, { error: "Unknown sign-in provider" }),
  userType: z.unknown().optional().transform((value) => (value === "digger" ? "digger" : "consumer")),
  ageConfirmed: z.unknown().optional().transform((value) => value === "on"),
  // The browser's zone (issue 47): kept only when the server knows it.
  timeZone: z.unknown().optional().transform(readerZone),
});

/** Where to send the browser, and the cookies to set on the way. */
async function startSocialSignIn(
  api: AuthApi,
  config: Config,
  { provider, userType, ageConfirmed, timeZone }: z.output<typeof socialSignInSchema>,
  redirectTo: string,
): Promise<{ url: string; setCookies: string[] }> {
  if (!config.oauth[provider]) {
    throw new AppError(
      "unavailable",
      `Sign-in with ${PROVIDER_NAMES[provider]} is not available on this site yet. Please use your e-mail and password.`,
    );
  }
  const result = await api<{ url?: string }>("/sign-in/social", {
    provider,
    callbackURL: redirectTo,
    errorCallbackURL: `/auth?redirect=${encodeURIComponent(redirectTo)}`,
    requestSignUp: true,
  });
  if (!result.ok) throw authFailure(result);
  if (!result.data?.url) {
    throw new AppError("unavailable", "Could not reach the sign-in provider. Please try again.", { status: 502 });
  }
  const cookie = (name: string, value: string) =>
    `${name}=${value}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax${config.secureCookies ? "; Secure" : ""}`;
  return {
    url: result.data.url,
    setCookies: [
      ...result.setCookies,
      cookie(SIGNUP_TYPE_COOKIE, userType),
      // Only the Sign Up tab asks; without it a new account is not made (auth.ts), a known one signs in.
      cookie(SIGNUP_AGE_COOKIE, ageConfirmed ? "1" : "0"),
      // The account's zone, written when the session is made (auth.ts).
      ...(timeZone ? [cookie(SIGNIN_ZONE_COOKIE, encodeURIComponent(timeZone))] : []),
    ],
  };
}

/** A social sign-in: the provider's address to go to, back here (`?redirect`) afterwards. */
export const socialSignInForm = defineOperation({
  access: anyone,
  input: socialSignInSchema,
  run: ({ authApi, services: { config }, input, url }) => startSocialSignIn(authApi, config, input, safeRedirect(url.searchParams.get("redirect"))),
});
