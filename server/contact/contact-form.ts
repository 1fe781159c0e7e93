/**
 * The operation behind /contact: a visitor's message is validated with core's rules,
 * limited per client address, and e-mailed to the support address (the event
 * "contact.message", server/events/registry.ts; delivered by the mailer
 * over SMTP, or kept in the outbox in local mode), with the sender as reply-to.
 */
import { contactSchema } from "#core/contact-schema.ts";
import { anyone, withRequest } from "../guards.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { limitedAddress } from "../security/client-address.ts";

export interface ContactPageData {
  supportEmail: string;
  supportPhone: string;
}

export function getContactPageData(config: Config): ContactPageData {
  return { supportEmail: config.supportEmail, supportPhone: config.supportPhone };
}

const contactRateLimited = (supportEmail: string) =>
  `You have sent several messages in a short time. Please wait a few minutes and try again, or e-mail us at ${supportEmail}.`;
const contactSendFailed = (supportEmail: string) =>
  `Your message could not be sent right now. Please try again in a few minutes, or e-mail us at ${supportEmail}.`;

/**
 * Everyone may write; the operation learns who is signed in (the e-mail names the account),
 * the client's address (the rate limit counts by it) and the request's logger.
 */
const CONTACT_FORM = withRequest(anyone);

/** Sends a visitor's message to support. */
export const sendContactMessage = defineOperation({
  access: CONTACT_FORM,
  input: contactSchema,
  async run({ services: { config, db, emit, rateLimits }, user, clientIp, logger, input: message }): Promise<void> {
    if (!(await rateLimits.contactPerIp.take(limitedAddress(clientIp)))) {
      logger.warn({ clientIp }, "contact form rate limited");
      throw new AppError("too_many_requests", contactRateLimited(config.supportEmail));
    }
    const {
      emailIds: [emailId],
    } = await emit(db, { kind: "contact.message", ...message, account: user }).catch((error: unknown) => {
      // Only recording the e-mail can fail here; a failed delivery is retried by the mailer.
      throw new AppError("unavailable", contactSendFailed(config.supportEmail), { cause: error });
    });
    logger.info({ emailId }, "contact message sent to support");
  },
});
