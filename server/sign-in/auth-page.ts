/**
 * /auth as operations (decision 0044): the page, and one operation for each of its forms
 * (`intent`): sign in, the second factor (a code from the app or a backup code), sign up, a
 * reset link, a social sign-in. Anyone may send them; each goes to Better Auth on the
 * browser's behalf (`authApi`). Where the browser goes next is the route's answer.
 */
import { forgotPasswordSchema, signInSchema, signUpSchema, twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import { safeRedirect } from "#core/redirect.ts";
import { cleanSignInErrorQuery, signInErrorMessage } from "#core/sign-in-errors.ts";
import { OAUTH_PROVIDERS } from "../config.ts";
import { defineOperation } from "../operation.ts";
import { anyone } from "../guards.ts";
import { requestPasswordReset } from "./passwords.ts";
import { signInWithPassword } from "./sign-in.ts";
import { signUp } from "./sign-up.ts";
import { socialSignInSchema, startSocialSignIn } from "./social-sign-in.ts";
import { verifyTwoFactorCode } from "./two-factor.ts";

/** The spec's title rule: Digger Portal for diggers, Post a Gig on the way to /post-gig. */
function authTitle(searchParams: URLSearchParams): string {
  if (searchParams.get("type") === "digger") return "Digger Portal";
  if (searchParams.get("redirect") === "/post-gig") return "Post a Gig";
  return PRODUCT_NAME;
}

/** The page's data, or where the browser goes instead. */
type AuthPage = { goTo: string } | { title: string; error: string | undefined; socialProviders: (typeof OAUTH_PROVIDERS)[number][] };

/**
 * The page, or where the browser goes instead (`goTo`): a signed-in user on to the page they
 * came for; a failed social sign-in's ?error=CODE to the same address without its text (only
 * our own message for it is shown, and the page's forms repeat the address).
 */
export const authPage = defineOperation({
  access: anyone,
  async run({ services: { config }, user, url }): Promise<AuthPage> {
    if (user) return { goTo: safeRedirect(url.searchParams.get("redirect")) };
    const clean = cleanSignInErrorQuery(url.searchParams);
    if (clean) return { goTo: `/auth?${clean}` };
    return {
      title: authTitle(url.searchParams),
      error: signInErrorMessage(url.searchParams.get("error")),
      socialProviders: OAUTH_PROVIDERS.filter((p) => config.oauth[p] !== undefined),
    };
  },
});

export const signInForm = defineOperation({
  access: anyone,
  input: signInSchema,
  run: ({ authApi, input }) => signInWithPassword(authApi, input),
});

export const verifyTotpForm = defineOperation({
  access: anyone,
  input: twoFactorCodeSchema,
  run: ({ authApi, input }) => verifyTwoFactorCode(authApi, "totp", input),
});

export const verifyBackupCodeForm = defineOperation({
  access: anyone,
  input: twoFactorCodeSchema,
  run: ({ authApi, input }) => verifyTwoFactorCode(authApi, "backup-code", input),
});

export const signUpForm = defineOperation({
  access: anyone,
  input: signUpSchema,
  run: ({ authApi, input }) => signUp(authApi, input),
});

export const forgotPasswordForm = defineOperation({
  access: anyone,
  input: forgotPasswordSchema,
  run: ({ authApi, input }) => requestPasswordReset(authApi, input),
});

/** A social sign-in: the provider's address to go to, back here (`?redirect`) afterwards. */
export const socialSignInForm = defineOperation({
  access: anyone,
  input: socialSignInSchema,
  run: ({ authApi, services: { config }, input, url }) => startSocialSignIn(authApi, config, input, safeRedirect(url.searchParams.get("redirect"))),
});
