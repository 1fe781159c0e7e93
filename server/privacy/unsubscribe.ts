/**
 * The one-click unsubscribe link of every promotional e-mail, every lead alert and every e-mail
 * about new messages (RFC 8058): its signed token (unsubscribe-token.ts) turns that list off for
 * its user (promotional e-mail, lead alerts set to Off, or 'E-mail me about new messages'), and
 * nothing else; no sign-in needed.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { turnLeadAlertsOff } from "../alerts/settings.ts";
import { turnReachEmailOff } from "../reach/preferences.ts";
import { UNSUBSCRIBE_LINK, UNSUBSCRIBE_MESSAGES, unsubscribeListOf, userOfToken } from "./unsubscribe-link.ts";

/**
 * The link's token and list: from its address (the mail client's one-click POST), else the
 * button's form. Never refused here: a missing or forged token is `userOfToken`'s to judge, and
 * any other list is the promotional one.
 */
const unsubscribeInput = z.object({ token: z.unknown(), list: z.unknown().transform(unsubscribeListOf) });

/** The address's value of each field first, the form's otherwise. */
function linkFields(form: FormData, url: URL): Record<string, unknown> {
  return { token: url.searchParams.get("token") ?? form.get("token"), list: url.searchParams.get("list") ?? form.get("list") };
}

/** Turns the list off for the token's user and says so; a forged or stale token changes nothing. */
export const unsubscribeByLink = defineOperation({
  access: UNSUBSCRIBE_LINK,
  input: unsubscribeInput,
  fields: linkFields,
  async run({ services: { db, config }, logger, input: { token, list } }): Promise<string> {
    const user = await userOfToken(db, config.authSecret, token, list);
    if (!user) throw new AppError("invalid_input", UNSUBSCRIBE_MESSAGES.invalid);
    if (list === "lead-alerts") {
      await turnLeadAlertsOff(db, user.id);
      logger.info("lead alerts turned off by link");
      return UNSUBSCRIBE_MESSAGES.alertsOff;
    }
    if (list === "messages") {
      await turnReachEmailOff(db, user.id, "messages");
      logger.info("e-mail about new messages turned off by link");
      return UNSUBSCRIBE_MESSAGES.messagesOff;
    }
    await db.update(users).set({ promotionalEmail: false }).where(eq(users.id, user.id));
    logger.info("unsubscribed from promotional e-mail by link");
    return UNSUBSCRIBE_MESSAGES.done;
  },
});
