/**
 * The operation behind /contact: a visitor's message is validated with core's rules,
 * limited per client address, and e-mailed to the support address (the event
 * "contact.message", server/events/registry.ts; delivered by the mailer
 * over SMTP, or kept in the outbox in local mode), with the sender as reply-to.
 */
import { contactSchema } from "#core/contact-schema.ts";
import type { SessionLookup } from "../auth/session.ts";
import type { Config } from "../config.ts";
import { AppError, parsedInput } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { AppServices } from "../services.ts";
import { limitedAddress } from "../security/client-address.ts";

export interface ContactPageData {
  supportEmail: string;
  supportPhone: string;
}

export function getContactPageData(config: Config): ContactPageData {
  return { supportEmail: config.supportEmail, supportPhone: config.supportPhone };
}

export const contactRateLimited = (supportEmail: string) =>
  `You have sent several messages in a short time. Please wait a few minutes and try again, or e-mail us at ${supportEmail}.`;
export const contactSendFailed = (supportEmail: string) =>
  `Your message could not be sent right now. Please try again in a few minutes, or e-mail us at ${supportEmail}.`;

/** What sending needs of the request's context: the services, who is asking, and from where. */
interface ContactContext {
  services: Pick<AppServices, "config" | "db" | "emit" | "rateLimits">;
  logger: Logger;
  clientIp: string;
  session(): Promise<SessionLookup>;
}

/** Sends a visitor's message to support. */
export async function sendContactMessage(context: ContactContext, form: FormData): Promise<void> {
  const { config, db, emit, rateLimits } = context.services;
  const message = parsedInput(contactSchema, Object.fromEntries(form));
  if (!(await rateLimits.contactPerIp.take(limitedAddress(context.clientIp)))) {
    context.logger.warn({ clientIp: context.clientIp }, "contact form rate limited");
    throw new AppError("too_many_requests", contactRateLimited(config.supportEmail));
  }
  const { user } = await context.session();
  const {
    emailIds: [emailId],
  } = await emit(db, { kind: "contact.message", ...message, account: user }).catch((error: unknown) => {
    // Only recording the e-mail can fail here; a failed delivery is retried by the mailer.
    throw new AppError("unavailable", contactSendFailed(config.supportEmail), { cause: error });
  });
  context.logger.info({ emailId }, "contact message sent to support");
}
