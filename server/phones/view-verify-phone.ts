/**
 * The code step (/verify-phone, issue 49): the signed-in account's waiting code, as the page
 * shows it: the number it went to, and the seconds until a new one may be sent. `next` is where
 * a right code leads: a path on this site only (core/redirect.ts).
 */
import { safeRedirect } from "#core/redirect.ts";
import { signedIn } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { displayPhone } from "./parse-phone.ts";
import { phoneVerificationOn } from "./verification-on.ts";
import { waitingCode } from "./waiting-code.ts";

/** Where the code step goes back to without a `next`. */
export const VERIFY_PHONE_FALLBACK = "/account";

export const VERIFY_PHONE_PAGE = signedIn();

export const viewVerifyPhone = defineOperation({
  access: VERIFY_PHONE_PAGE,
  async run({ services: { db, config }, user, url }) {
    const next = safeRedirect(url.searchParams.get("next"), VERIFY_PHONE_FALLBACK);
    if (!phoneVerificationOn(config)) return { next, available: false as const, code: null };
    const code = await waitingCode(db, user.id);
    return {
      next,
      available: true as const,
      code: code ? { number: displayPhone(code.phone), resendInSeconds: code.resendInSeconds, sentAt: code.sentAt } : null,
    };
  },
});
