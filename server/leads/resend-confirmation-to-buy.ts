/** The gig page's Confirm your e-mail notice (a digger buys a lead only with a confirmed e-mail, start-purchase.ts). */
import { signedIn } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { sendConfirmationAgain } from "../sign-in/confirm-email.ts";

/** The gig page's Confirm your e-mail notice: a new confirmation link for a digger who has none confirmed. */
export const resendConfirmationToBuy = defineOperation({
  access: signedIn(),
  run: ({ authApi, user }) => sendConfirmationAgain(authApi, user),
});
