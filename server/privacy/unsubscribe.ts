/**
 * The one-click unsubscribe link of every promotional e-mail, every lead alert and every e-mail
 * about new messages (RFC 8058): its signed token (unsubscribe-token.ts) turns that list off for
 * its user (promotional e-mail, lead alerts set to Off, or 'E-mail me about new messages'), and
 * nothing else; no sign-in needed.
 */
import { eq } from "drizzle-orm";
import { users } from "../db/schema.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { anyone, withRequest } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { turnLeadAlertsOff } from "../alerts/settings.ts";
import { turnReachEmailOff } from "../reach/preferences.ts";
import { userIdOfUnsubscribeToken, verifyUnsubscribeToken, type UnsubscribeList } from "../mail/unsubscribe-token.ts";

export const UNSUBSCRIBE_MESSAGES = {
  done: "You have been unsubscribed from promotional e-mail.",
  alertsOff: "Lead alerts are off. You can turn them on again on your account page.",
  messagesOff: "E-mail about new messages is off. You can turn it on again on your account page.",
  invalid: "This unsubscribe link is not valid. You can change your e-mail preferences on your account page.",
} as const;

/** The list a link names (`list=`); anything else is the promotional one, as links before alerts were. */
export const unsubscribeListOf = (value: unknown): UnsubscribeList => (value === "lead-alerts" || value === "messages" ? value : "promotional");

/** No sign-in needed: the token names its user; the operations learn the request's logger. */
const UNSUBSCRIBE_LINK = withRequest(anyone);

/** The link's token and list: from its address (the mail client's one-click POST), else the button's form. */
function linkOf(url: URL, form: FormData | null): { token: unknown; list: UnsubscribeList } {
  const token = url.searchParams.get("token") ?? form?.get("token");
  return { token, list: unsubscribeListOf(url.searchParams.get("list") ?? form?.get("list")) };
}

/** The user a token was signed for, when it is genuine; nobody otherwise. */
async function userOfToken(db: Database, secret: string, token: unknown, list: UnsubscribeList): Promise<{ id: string } | null> {
  if (typeof token !== "string") return null;
  const userId = userIdOfUnsubscribeToken(token);
  if (!userId) return null;
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return user && verifyUnsubscribeToken(secret, token, user, list) ? { id: user.id } : null;
}

/** Opening the link only checks its token: the page shows the button, or why the link is not valid. */
export const openUnsubscribeLink = defineOperation({
  access: UNSUBSCRIBE_LINK,
  async run({ services: { db, config }, url }) {
    const token = url.searchParams.get("token") ?? "";
    const list = unsubscribeListOf(url.searchParams.get("list"));
    const valid = (await userOfToken(db, config.authSecret, token, list)) !== null;
    return { token, list, invalid: valid ? null : UNSUBSCRIBE_MESSAGES.invalid };
  },
});

/** Turns the list off for the token's user and says so; a forged or stale token changes nothing. */
export const unsubscribeByLink = defineOperation({
  access: UNSUBSCRIBE_LINK,
  async run({ services: { db, config }, logger, url, form }): Promise<string> {
    const { token, list } = linkOf(url, form);
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
