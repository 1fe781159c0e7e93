/**
 * The one-click unsubscribe link of every promotional e-mail (RFC 8058): its signed token
 * (unsubscribe-token.ts) turns promotional e-mail off for its user, no sign-in needed.
 */
import { eq } from "drizzle-orm";
import { users } from "../db/schema.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { AppServices } from "../services.ts";
import { userIdOfUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token.ts";

export const UNSUBSCRIBE_MESSAGES = {
  done: "You have been unsubscribed from promotional e-mail.",
  invalid: "This unsubscribe link is not valid. You can change your e-mail preferences on your account page.",
} as const;

/** What the link needs of the request's context. */
interface UnsubscribeContext {
  services: Pick<AppServices, "db" | "config">;
  logger: Logger;
}

/** The user a token was signed for, when it is genuine; nobody otherwise. */
async function userOfToken(db: Database, secret: string, token: unknown): Promise<{ id: string } | null> {
  if (typeof token !== "string") return null;
  const userId = userIdOfUnsubscribeToken(token);
  if (!userId) return null;
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return user && verifyUnsubscribeToken(secret, token, user) ? { id: user.id } : null;
}

/** True when the link's token is genuine: opening the link only checks it. */
export async function isGenuineUnsubscribeToken({ services }: UnsubscribeContext, token: unknown): Promise<boolean> {
  return (await userOfToken(services.db, services.config.authSecret, token)) !== null;
}

/** Turns promotional e-mail off for the token's user; a forged or stale token changes nothing. */
export async function unsubscribeByLink(context: UnsubscribeContext, token: unknown): Promise<void> {
  const { db, config } = context.services;
  const user = await userOfToken(db, config.authSecret, token);
  if (!user) throw new AppError("invalid_input", UNSUBSCRIBE_MESSAGES.invalid);
  await db.update(users).set({ promotionalEmail: false }).where(eq(users.id, user.id));
  context.logger.info("unsubscribed from promotional e-mail by link");
}
