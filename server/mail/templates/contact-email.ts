/**
 * A visitor's message to support. Every field is the visitor's own text: the message is
 * quoted, the rest are facts; none becomes a link (support answers by replying).
 */
import { PRODUCT_NAME } from "#core/product.ts";
import { divider, facts, paragraph, quote, type EmailMessage } from "../content.ts";

export interface ContactEmailInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  /** Who is writing, when signed in: support sees the account beside the address typed in the form. */
  account: { id: string; email: string; userType: string } | null;
}

export function contactEmail({ name, email, subject, message, account }: ContactEmailInput): EmailMessage {
  return {
    subject: subject ? `Contact form: ${subject}` : `Contact form: message from ${name}`,
    content: [
      paragraph(`${name} <${email}> wrote through the ${PRODUCT_NAME} contact form.`),
      facts(["Subject", subject || "(none)"], ["Account", account ? `signed in as ${account.email} (${account.userType}, id ${account.id})` : "not signed in"]),
      quote(message),
      divider(),
      paragraph(`Reply to this e-mail to answer ${name} at ${email}.`),
    ],
  };
}
