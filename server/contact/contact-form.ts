/**
 * The operation behind /contact: a visitor's message is validated with core's rules,
 * limited per client address, and e-mailed to the support address through the mailer
 * (delivered over SMTP, or kept in the outbox in local mode), with the sender as reply-to.
 */
import { data, type AppLoadContext } from "react-router";
import { CONTACT_SENT, validateContactForm, type ContactMessage } from "#core/contact-schema.ts";
import type { Config } from "../config.ts";
import type { OutgoingEmail } from "../mail/mailer.ts";

export interface ContactPageData {
  supportEmail: string;
  supportPhone: string;
}

export interface ContactFormResult {
  error?: string;
  success?: string;
  fieldErrors?: Record<string, string>;
}

export function getContactPageData(config: Config): ContactPageData {
  return { supportEmail: config.supportEmail, supportPhone: config.supportPhone };
}

export const contactRateLimited = (supportEmail: string) =>
  `You have sent several messages in a short time. Please wait a few minutes and try again, or e-mail us at ${supportEmail}.`;
export const contactSendFailed = (supportEmail: string) =>
  `Your message could not be sent right now. Please try again in a few minutes, or e-mail us at ${supportEmail}.`;

/** Who is writing, when they are signed in: support sees the account beside the address typed in the form. */
interface Account {
  id: string;
  email: string;
  userType: string;
}

export function contactEmail(supportEmail: string, message: ContactMessage, account: Account | null): OutgoingEmail {
  const { name, email, subject, message: body } = message;
  const text = [
    `${name} <${email}> wrote through the Digs & Gigs contact form.`,
    "",
    `Subject: ${subject || "(none)"}`,
    `Account: ${account ? `signed in as ${account.email} (${account.userType}, id ${account.id})` : "not signed in"}`,
    "",
    body,
    "",
    "--",
    `Reply to this e-mail to answer ${name} at ${email}.`,
  ].join("\n");
  return {
    to: supportEmail,
    replyTo: email,
    subject: subject ? `Contact form: ${subject}` : `Contact form: message from ${name}`,
    text,
    kind: "transactional",
  };
}

export async function handleContactForm(context: AppLoadContext, request: Request) {
  const { config, mailer, rateLimits } = context.services;
  const checked = validateContactForm(Object.fromEntries(await request.formData()));
  if (!checked.success) {
    return data<ContactFormResult>({ error: checked.error, fieldErrors: checked.fieldErrors }, { status: 400 });
  }
  if (!rateLimits.contactPerIp.take(context.clientIp)) {
    context.logger.warn({ clientIp: context.clientIp }, "contact form rate limited");
    return data<ContactFormResult>({ error: contactRateLimited(config.supportEmail) }, { status: 429 });
  }
  const { user } = await context.session();
  try {
    const emailId = await mailer.send(contactEmail(config.supportEmail, checked.data, user));
    context.logger.info({ emailId }, "contact message sent to support");
  } catch (error) {
    // Only recording the e-mail can fail here; a failed delivery is retried by the mailer.
    context.logger.error({ err: error }, "could not record the contact message");
    return data<ContactFormResult>({ error: contactSendFailed(config.supportEmail) }, { status: 503 });
  }
  return data<ContactFormResult>({ success: CONTACT_SENT });
}
