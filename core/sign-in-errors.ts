/**
 * The message for `/auth?error=CODE`, where Better Auth's OAuth callback sends the browser
 * back after a failed social sign-in (the code is its own, our server's, or the provider's).
 * Only our own words are shown: the query text is never echoed, and the page's address keeps
 * only a code we know (its forms post back to it, so it is in the page).
 */
export const SIGN_IN_FAILED = "Sign-in failed. Please try again.";
/** An operator suspended the account (issue 22): no sign-in method opens a session. */
export const ACCOUNT_SUSPENDED = "This account is suspended. Contact support.";

const RESTART = "Your sign-in expired or was started in another browser. Please try again.";
const NOT_CONFIRMED = "The sign-in provider did not confirm your sign-in. Please try again.";
const PROVIDER_UNAVAILABLE = "The sign-in provider is not available right now. Please try again later.";
const NOT_LINKED = "This sign-in could not be linked to your account. Please sign in with your e-mail and password.";

const MESSAGES: Record<string, string> = {
  // From the provider (RFC 6749, section 4.1.2.1), passed on by Better Auth.
  access_denied: "Sign-in was cancelled.",
  server_error: PROVIDER_UNAVAILABLE,
  temporarily_unavailable: PROVIDER_UNAVAILABLE,
  // Better Auth's OAuth state: expired, used already, or from another browser.
  state_mismatch: RESTART,
  state_not_found: RESTART,
  state_invalid: RESTART,
  please_restart_the_process: RESTART,
  // Better Auth's code exchange and profile.
  no_code: NOT_CONFIRMED,
  invalid_code: NOT_CONFIRMED,
  issuer_missing: NOT_CONFIRMED,
  issuer_mismatch: NOT_CONFIRMED,
  nonce_binding_missing: NOT_CONFIRMED,
  oauth_provider_not_found: "This sign-in provider is not available. Please use your e-mail and password.",
  unable_to_get_user_info: "We could not read your profile from the sign-in provider. Please try again.",
  email_not_found: "Your sign-in provider did not share your e-mail address. Please allow it, or use your e-mail and password.",
  email_not_verified: "Please verify your e-mail address with your sign-in provider, then try again.",
  // Better Auth's account handling (link-account.mjs).
  account_not_linked: "An account with this e-mail already exists. Please sign in with your e-mail and password.",
  unable_to_link_account: NOT_LINKED,
  email_does_not_match: NOT_LINKED,
  account_already_linked_to_different_user: "This sign-in is already linked to another account.",
  signup_disabled: "No account matches this sign-in. Please sign up first.",
  unable_to_create_user: "We could not create your account. Please try again.",
  // Our own: a new account by social sign-in needs the sign-up tab's 18+ confirmation.
  ACCOUNT_SUSPENDED,
  AGE_CONFIRMATION_REQUIRED: "Please confirm you are 18 or older on the Sign Up tab, then continue with your provider again.",
};

/** Our message for an `?error=` code (the generic one for any unknown code), or undefined without one. */
export function signInErrorMessage(code: string | null): string | undefined {
  if (code === null) return undefined;
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : SIGN_IN_FAILED;
}

/** A code we have words for, or "unknown" (the generic message). */
export function signInErrorCode(code: string): string {
  return Object.hasOwn(MESSAGES, code) ? code : "unknown";
}

/**
 * /auth's query without text from elsewhere: an `error_description` (a provider's, or anyone's
 * who writes a link) removed, and a code we do not know made "unknown". Null when it has none.
 */
export function cleanSignInErrorQuery(query: URLSearchParams): URLSearchParams | null {
  const code = query.get("error");
  const known = code === null || signInErrorCode(code) === code;
  if (known && !query.has("error_description")) return null;
  const clean = new URLSearchParams(query);
  clean.delete("error_description");
  if (code !== null) clean.set("error", signInErrorCode(code));
  return clean;
}
