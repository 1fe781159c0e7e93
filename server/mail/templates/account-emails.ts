/** The account's own e-mails: confirmation, password reset, a sign-up with a taken address, suspension. */
import { PRODUCT_NAME } from "#core/product.ts";
import { action, paragraph, type EmailMessage } from "../content.ts";

const VERIFICATION_SUBJECT = `Confirm your e-mail for ${PRODUCT_NAME}`;

export function confirmationEmail({ name, link, client }: { name: string; link: string; client: boolean }): EmailMessage {
  return {
    subject: VERIFICATION_SUBJECT,
    content: [
      paragraph(`Hello ${name},`),
      paragraph("To confirm that this is your e-mail address, open this link within 24 hours:"),
      action("Confirm my e-mail", link, ""),
      ...(client ? [paragraph("Your gigs are published for diggers to see once you confirm.")] : []),
      paragraph(`If you did not create a ${PRODUCT_NAME} account, ignore this e-mail: nothing is published under your address.`),
    ],
  };
}

export function passwordResetEmail({ name, link }: { name: string; link: string }): EmailMessage {
  return {
    subject: `Reset your ${PRODUCT_NAME} password`,
    content: [
      paragraph(`Hello ${name},`),
      paragraph(`Someone asked to reset the password of your ${PRODUCT_NAME} account. To choose a new password, open this link within one hour:`),
      action("Reset my password", link, ""),
      paragraph("The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is."),
    ],
  };
}

export function signUpWithTakenAddressEmail({ name, publicUrl }: { name: string; publicUrl: string }): EmailMessage {
  return {
    subject: "Someone tried to sign up with your e-mail address",
    content: [
      paragraph(`Hello ${name},`),
      paragraph(`Someone just tried to create a ${PRODUCT_NAME} account with this e-mail address, which already has an account.`),
      action("If it was you, sign in instead", `${publicUrl}/auth`),
      paragraph(`Forgot your password? Reset it from the same page ("Forgot password?").`),
      paragraph("If it was not you, you can ignore this e-mail: nothing has changed on your account."),
    ],
  };
}

/** E-mail only (a suspended user cannot open the bell), without the operator's reason: that stays in the console. */
export function accountSuspendedEmail({ publicUrl }: { publicUrl: string }): EmailMessage {
  return {
    subject: `Your ${PRODUCT_NAME} account is suspended`,
    heading: "Your account is suspended",
    content: [
      paragraph(`An operator of ${PRODUCT_NAME} suspended your account. You are signed out, you cannot sign in, and your open gigs and profile are no longer shown.`),
      action("Contact support", `${publicUrl}/contact`, "If you think this is a mistake, contact support"),
    ],
  };
}

export function accountReinstatedEmail({ publicUrl }: { publicUrl: string }): EmailMessage {
  return {
    subject: `Your ${PRODUCT_NAME} account is active again`,
    heading: "Your account is active again",
    content: [
      paragraph(`An operator of ${PRODUCT_NAME} reinstated your account. You can sign in again, and your open gigs and profile are shown again.`),
      action("Sign in", `${publicUrl}/auth`),
    ],
  };
}
