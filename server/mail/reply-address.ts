/**
 * The Reply-To of a message notification (decision 0048, amended for issue 45):
 * `reply+{token}@{INBOUND_DOMAIN}`, one address per thread, recipient and day of issue. The token
 * is the thread's id (32 hex digits), the day it was issued (days since 1970, 4 hex digits) and
 * 80 bits of an HMAC-SHA256 of the thread's id, the recipient's user id, their reply key
 * generation and that day, keyed with the auth secret under a purpose of its own (20 hex
 * digits): 62 characters before the @, within the 64 a local part may have, and lower-case only,
 * since some relays fold the case of addresses. Nobody can make one without the secret; one
 * thread's address names nobody in another; a password change or a sign-out everywhere (a new
 * generation, migration 0047) kills every address issued before; and an address is taken for
 * `REPLY_ADDRESS_DAYS` after its day, each notice carrying a freshly dated one. Which of the two
 * parties it names is found by checking the signature for each.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, or } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { threads, users } from "../db/schema.ts";

/** How long after its notice a reply address posts; later it is answered with "answer in the product". */
export const REPLY_ADDRESS_DAYS = 60;

const PURPOSE = "digsandgigs/reply-by-email/v2";
/** The addresses of before issue 45 (no day, no generation): dead, answered like an expired one. */
const PURPOSE_V1 = "digsandgigs/reply-by-email/v1";
const LOCAL_PART = /^reply\+([0-9a-f]{32})([0-9a-f]{4})?([0-9a-f]{20})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whose address: the user and their reply key generation (users.reply_key_generation). */
export interface ReplyKeyHolder {
  id: string;
  replyKeyGeneration: number;
}

const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex").slice(0, 20);

function signature(secret: string, threadId: string, user: ReplyKeyHolder, day: number): string {
  return hmac(secret, `${PURPOSE}\n${threadId}\n${user.id}\n${user.replyKeyGeneration}\n${day}`);
}

const dayOf = (at: Date) => Math.floor(at.getTime() / DAY_MS);

/** The address at which `user` answers the thread by e-mail, issued on the day of `issuedAt`. */
export function replyAddress(inbound: { domain: string }, secret: string, threadId: string, user: ReplyKeyHolder, issuedAt = new Date()): string {
  const day = dayOf(issuedAt);
  return `reply+${threadId.replaceAll("-", "")}${day.toString(16).padStart(4, "0")}${signature(secret, threadId, user, day)}@${inbound.domain}`;
}

/** Whom a reply address names: the thread and the party (with their address now), or null. */
export interface ReplyRecipient {
  threadId: string;
  userId: string;
  email: string;
  /** Issued more than REPLY_ADDRESS_DAYS ago (or before addresses carried a day): never posts. */
  expired: boolean;
}

/**
 * The thread and party of a reply address at `domain`, or null when it is not one of ours: another
 * domain, not shaped like a token, no such thread, or a signature made for nobody in it (under
 * their key generation now).
 */
export async function replyRecipient(db: Database, secret: string, domain: string, address: string, now = new Date()): Promise<ReplyRecipient | null> {
  const at = address.lastIndexOf("@");
  if (at <= 0 || address.slice(at + 1).toLowerCase() !== domain) return null;
  const match = LOCAL_PART.exec(address.slice(0, at).toLowerCase());
  if (!match) return null;
  const hex = match[1]!;
  const threadId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const parties = await db
    .select({ id: users.id, email: users.email, replyKeyGeneration: users.replyKeyGeneration })
    .from(threads)
    .innerJoin(users, or(eq(users.id, threads.diggerUserId), eq(users.id, threads.clientId)))
    .where(eq(threads.id, threadId));
  const day = match[2] === undefined ? null : Number.parseInt(match[2], 16);
  const given = Buffer.from(match[3]!);
  const signedFor = (user: ReplyKeyHolder) =>
    timingSafeEqual(given, Buffer.from(day === null ? hmac(secret, `${PURPOSE_V1}\n${threadId}\n${user.id}`) : signature(secret, threadId, user, day)));
  const party = parties.find(signedFor);
  if (!party) return null;
  return { threadId, userId: party.id, email: party.email, expired: day === null || dayOf(now) - day > REPLY_ADDRESS_DAYS };
}
