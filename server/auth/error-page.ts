/**
 * Better Auth's error page, `/api/auth/error?error=CODE&error_description=TEXT` (where its OAuth
 * callback sends a failed sign-in that brought no error URL of its own), printed the
 * description from the query on our origin: anyone could link to a page of ours saying "Your
 * account is locked. Call …" (issue 30, finding 12). The address is answered here instead, with
 * a redirect to /auth carrying the code alone, if it is one we know ("unknown" if not); /auth
 * shows our own message for it (core/sign-in-errors.ts), and the description goes nowhere.
 */
import { signInErrorCode } from "#core/sign-in-errors.ts";

export const AUTH_ERROR_PATH = "/api/auth/error";

/** Where the error page sends the browser: /auth with the code, if we know it. */
export function authErrorLocation(query: URLSearchParams): string {
  return `/auth?error=${signInErrorCode(query.get("error") ?? "")}`;
}
