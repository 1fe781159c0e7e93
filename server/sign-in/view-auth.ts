/**
 * /auth, the page: its title, a failed social sign-in's message and the social buttons
 * configured; or where the browser goes instead. Its forms are one operation each:
 * sign-in.ts, verify-totp.ts, verify-backup-code.ts, sign-up.ts, forgot-password.ts and
 * social-sign-in.ts.
 */
import { PRODUCT_NAME } from "#core/product.ts";
import { safeRedirect } from "#core/redirect.ts";
import { cleanSignInErrorQuery, signInErrorMessage } from "#core/sign-in-errors.ts";
import { OAUTH_PROVIDERS } from "../config.ts";
import { defineOperation } from "../operation.ts";
import { anyone } from "../guards.ts";

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
