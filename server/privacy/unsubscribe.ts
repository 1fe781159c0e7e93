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
import type { Logger } from "../logger.ts";
import type { AppServices } from "../services.ts";
import { turnLeadAlertsOff } from "../alerts/settings.ts";
import { turnReachEmailOff } from "../reach/preferences.ts";
import { userIdOfUnsubscribeToken, verifyUnsubscribeToken, type UnsubscribeList } from "./unsubscribe-token.ts";

export const UNSUBSCRIBE_MESSAGES = {
  done: "You have been unsubscribed from promotional e-mail.",
  alertsOff: "Lead alerts are off. You can turn them on again on your account page.",
  messagesOff: "E-mail about new messages is off. You can turn it on again on your account page.",
  invalid: "This unsubscribe link is not valid. You can change your e-mail preferences on your account page.",
} as const;

/** The list a link names (`list=`); anything else is the promotional one, as links before alerts were. */
export const unsubscribeListOf = (value: unknown): UnsubscribeList => (value === "lead-alerts" || value === "messages" ? value : "promotional");

/** What the link needs of the request's context. */
interface UnsubscribeContext {
  services: Pick<AppServices, "db" | "config">;
  logger: Logger;
}

/** The user a token was signed for, when it is genuine; nobody otherwise. */
async function userOfToken(db: Database, secret: string, token: unknown, list: UnsubscribeList): Promise<{ id: string } | null> {
  if (typeof token !== "string") return null;
  const userId = userIdOfUnsubscribeToken(token);
  if (!userId) return null;
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return user && verifyUnsubscribeToken(secret, token, user, list) ? { id: user.id } : null;
}

/** True when the link's token is genuine: opening the link only checks it. */
export async function isGenuineUnsubscribeToken({ services }: UnsubscribeContext, token: unknown, list: UnsubscribeList = "promotional"): Promise<boolean> {
  return (await userOfToken(services.db, services.config.authSecret, token, list)) !== null;
}

/** Turns the list off for the token's user and says so; a forged or stale token changes nothing. */
export async function unsubscribeByLink(context: UnsubscribeContext, token: unknown, list: UnsubscribeList = "promotional"): Promise<string> {
  const { db, config } = context.services;
  const user = await userOfToken(db, config.authSecret, token, list);
  if (!user) throw new AppError("invalid_input", UNSUBSCRIBE_MESSAGES.invalid);
  if (list === "lead-alerts") {
    await turnLeadAlertsOff(db, user.id);
    context.logger.info("lead alerts turned off by link");
    return UNSUBSCRIBE_MESSAGES.alertsOff;
  }
  if (list === "messages") {
    await turnReachEmailOff(db, user.id, "messages");
    context.logger.info("e-mail about new messages turned off by link");
    return UNSUBSCRIBE_MESSAGES.messagesOff;
  }
  await db.update(users).set({ promotionalEmail: false }).where(eq(users.id, user.id));
  context.logger.info("unsubscribed from promotional e-mail by link");
  return UNSUBSCRIBE_MESSAGES.done;
}
