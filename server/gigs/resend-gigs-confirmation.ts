/** My Gigs' banner: Resend the confirmation e-mail (an unconfirmed client's gigs are not published). */
import { sendConfirmationAgain } from "../sign-in/confirm-email.ts";
import { defineOperation } from "../operation.ts";
import { MY_GIGS } from "./access.ts";

/** My Gigs' banner: a new confirmation e-mail (an unconfirmed client's gigs are not published). */
export const resendGigsConfirmation = defineOperation({
  access: MY_GIGS,
  run: ({ authApi, user }) => sendConfirmationAgain(authApi, user),
});
