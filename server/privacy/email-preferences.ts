/**
 * E-mail preferences (spec section 1: opt-out of promotional but not transactional e-mail):
 * one switch for promotional e-mail, set on the account page or by the signed one-click
 * unsubscribe link that every promotional e-mail carries (no sign-in needed).
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { userIdOfUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token.ts";

export const UNSUBSCRIBE_MESSAGES = {
  done: "You have been unsubscribed from promotional e-mail.",
  invalid: "This unsubscribe link is not valid. You can change your e-mail preferences on your account page.",
} as const;

export async function promotionalEmailEnabled(db: Database, userId: string): Promise<boolean> {
  const [user] = await db.select({ on: users.promotionalEmail }).from(users).where(eq(users.id, userId));
  return user?.on ?? false;
}

export async function setPromotionalEmail(db: Database, userId: string, on: boolean): Promise<void> {
  await db
    .update(users)
    .set({ promotionalEmail: on })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
}

/** The user a token was signed for, when it is genuine; nobody otherwise. */
export async function userOfUnsubscribeToken(db: Database, secret: string, token: unknown): Promise<{ id: string } | null> {
  if (typeof token !== "string") return null;
  const userId = userIdOfUnsubscribeToken(token);
  if (!userId) return null;
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return user && verifyUnsubscribeToken(secret, token, user) ? { id: user.id } : null;
}

/** Turns promotional e-mail off for the token's user; false for a forged or stale token. */
export async function unsubscribeWithToken(db: Database, secret: string, token: unknown): Promise<boolean> {
  const user = await userOfUnsubscribeToken(db, secret, token);
  if (!user) return false;
  await db.update(users).set({ promotionalEmail: false }).where(eq(users.id, user.id));
  return true;
}
