/** Who may open /account (server/account/account-page.ts). Its forms' rule is `ACCOUNT_FORM` (server/guards.ts). */
import { signedIn, withRequest } from "../guards.ts";

/** The page: a visitor is sent to sign in with the page's own message. */
export const ACCOUNT_PAGE = withRequest(signedIn({ signedOut: { message: "Please sign in to view your account" } }));
