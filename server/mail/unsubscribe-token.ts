/**
 * The token of a one-click unsubscribe link: the user's id and an HMAC-SHA256 of the id and
 * their e-mail address, keyed with the auth secret under a purpose of its own (so a token
 * can never pass for a session or any other signed value). Changing the id, the address or
 * a single character of the signature makes it worthless; a link stops working when the
 * account's address changes.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** What a link unsubscribes from: promotional e-mail, lead alerts (server/alerts/), or e-mail about new messages (server/conversations/). */
export type UnsubscribeList = "promotional" | "lead-alerts" | "messages";

/** Each list signs under its own purpose: a promotional link cannot turn alerts off, nor the reverse. */
const PURPOSES: Record<UnsubscribeList, string> = {
  promotional: "digsandgigs/unsubscribe/v1",
  "lead-alerts": "digsandgigs/unsubscribe/lead-alerts/v1",
  messages: "digsandgigs/unsubscribe/messages/v1",
};

function signature(secret: string, userId: string, email: string, list: UnsubscribeList): string {
  return createHmac("sha256", secret).update(`${PURPOSES[list]}\n${userId}\n${email.trim().toLowerCase()}`).digest("base64url");
}

export function signUnsubscribeToken(secret: string, userId: string, email: string, list: UnsubscribeList = "promotional"): string {
  return `${userId}.${signature(secret, userId, email, list)}`;
}

/** The user id a token names, or null when it is not shaped like a token at all. */
export function userIdOfUnsubscribeToken(token: string): string | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.length > 300) return null;
  return token.slice(0, dot);
}

/** True only for a token signed with this secret for exactly this user and address. */
export function verifyUnsubscribeToken(secret: string, token: string, user: { id: string; email: string }, list: UnsubscribeList = "promotional"): boolean {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.slice(0, dot) !== user.id) return false;
  // Compared as text: decoding first would let the unused bits of the last character vary.
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(secret, user.id, user.email, list));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const unsubscribeUrl = (publicUrl: string, token: string, list: UnsubscribeList = "promotional") =>
  `${publicUrl}/unsubscribe?token=${encodeURIComponent(token)}${list === "promotional" ? "" : `&list=${list}`}`;

/** The signed one-click link that turns the recipient's `list` off (and nothing else): a lead alert's or a message notice's. */
export function listUnsubscribeUrl(config: { publicUrl: string; authSecret: string }, recipient: { userId: string; email: string }, list: UnsubscribeList): string {
  return unsubscribeUrl(config.publicUrl, signUnsubscribeToken(config.authSecret, recipient.userId, recipient.email, list), list);
}
