/**
 * What the one-click unsubscribe link's two verbs share (open-unsubscribe-link.ts, the page;
 * unsubscribe.ts, the change): its messages, the list it names, who may use it (anyone: the
 * token names its user) and the user of a genuine token.
 */
import { eq } from "drizzle-orm";
import { users } from "../db/schema.ts";
import type { Database } from "../db/client.ts";
import { anyone, withRequest } from "../guards.ts";
import { verifyUnsubscribeToken, userIdOfUnsubscribeToken, type UnsubscribeList } from "../mail/unsubscribe-token.ts";

export const UNSUBSCRIBE_MESSAGES = {
  done: "You have been unsubscribed from promotional e-mail.",
  alertsOff: "Lead alerts are off. You can turn them on again on your account page.",
  messagesOff: "E-mail about new messages is off. You can turn it on again on your account page.",
  invalid: "This unsubscribe link is not valid. You can change your e-mail preferences on your account page.",
} as const;

/** The list a link names (`list=`); anything else is the promotional one, as links before alerts were. */
export const unsubscribeListOf = (value: unknown): UnsubscribeList => (value === "lead-alerts" || value === "messages" ? value : "promotional");

/** No sign-in needed: the token names its user; the operations learn the request's logger. */
export const UNSUBSCRIBE_LINK = withRequest(anyone);

/** The user a token was signed for, when it is genuine; nobody otherwise. */
export async function userOfToken(db: Database, secret: string, token: unknown, list: UnsubscribeList): Promise<{ id: string } | null> {
  if (typeof token !== "string") return null;
  const userId = userIdOfUnsubscribeToken(token);
  if (!userId) return null;
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return user && verifyUnsubscribeToken(secret, token, user, list) ? { id: user.id } : null;
}
