/**
 * The Reply-To of a message notification (decision 0048): `reply+{token}@{INBOUND_DOMAIN}`,
 * one address per thread and recipient. The token is the thread's id (32 hex digits) and 80
 * bits of an HMAC-SHA256 of the thread's id and the recipient's user id, keyed with the auth
 * secret under a purpose of its own (20 hex digits): 58 characters before the @, within the 64
 * a local part may have, and lower-case only, since some relays fold the case of addresses.
 * Nobody can make one without the secret, and one thread's address names nobody in another.
 * Which of the two parties it names is found by checking the signature for each.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { threads, users } from "../db/schema.ts";

const PURPOSE = "digsandgigs/reply-by-email/v1";
const LOCAL_PART = /^reply\+([0-9a-f]{32})([0-9a-f]{20})$/;

function signature(secret: string, threadId: string, userId: string): string {
  return createHmac("sha256", secret).update(`${PURPOSE}\n${threadId}\n${userId}`).digest("hex").slice(0, 20);
}

/** The address at which `userId` answers the thread by e-mail. */
export function replyAddress(inbound: { domain: string }, secret: string, threadId: string, userId: string): string {
  return `reply+${threadId.replaceAll("-", "")}${signature(secret, threadId, userId)}@${inbound.domain}`;
}

/** Whom a reply address names: the thread and the party (with their address now), or null. */
export interface ReplyRecipient {
  threadId: string;
  userId: string;
  email: string;
}

/**
 * The thread and party of a reply address at `domain`, or null when it is not one of ours: another
 * domain, not shaped like a token, no such thread, or a signature made for nobody in it.
 */
export async function replyRecipient(db: Database, secret: string, domain: string, address: string): Promise<ReplyRecipient | null> {
  const at = address.lastIndexOf("@");
  if (at <= 0 || address.slice(at + 1).toLowerCase() !== domain) return null;
  const match = LOCAL_PART.exec(address.slice(0, at).toLowerCase());
  if (!match) return null;
  const hex = match[1]!;
  const threadId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const [thread] = await db.select({ diggerUserId: threads.diggerUserId, clientId: threads.clientId }).from(threads).where(eq(threads.id, threadId));
  if (!thread) return null;
  const given = Buffer.from(match[2]!);
  const userId = [thread.diggerUserId, thread.clientId].find((id) => timingSafeEqual(given, Buffer.from(signature(secret, threadId, id))));
  if (!userId) return null;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user ? { threadId, userId, email: user.email } : null;
}
