/**
 * The token of a visit's signed Confirm / Need to change link (issue 50), in the client's
 * 24-hour reminder: usable without signing in, like the unsubscribe link (unsubscribe-token.ts).
 * It is the visit's id, the visit's `sequence` when the reminder was written, and an
 * HMAC-SHA256 of both and the visit's client's id, keyed with the auth secret under a purpose of
 * its own (so it passes for no other signed value). It names one visit as it stood: once the
 * visit changes (a move, a cancellation: `sequence` goes up), a link of before is old; it needs no
 * expiry of its own, since a visit whose window has opened takes no answer
 * (conversations/visits/client-answers.ts). Checked by conversations/visits/visit-link.ts.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const PURPOSE = "digsandgigs/visit-answer/v1";
const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/;

/** The two answers of the link. */
export type VisitLinkAnswer = "confirm" | "change";

function signature(secret: string, visitId: string, sequence: number, clientId: string): string {
  return createHmac("sha256", secret).update(`${PURPOSE}\n${visitId}\n${sequence}\n${clientId}`).digest("base64url");
}

export function signVisitAnswerToken(secret: string, visit: { id: string; sequence: number; clientId: string }): string {
  return `${visit.id}.${visit.sequence}.${signature(secret, visit.id, visit.sequence, visit.clientId)}`;
}

/** The visit and sequence a token names, or null when it is not shaped like one (its signature is not checked here). */
export function visitOfAnswerToken(token: unknown): { visitId: string; sequence: number } | null {
  if (typeof token !== "string") return null;
  const match = TOKEN.exec(token);
  return match ? { visitId: match[1]!, sequence: Number(match[2]) } : null;
}

/** True only for a token signed with this secret for this visit, at the sequence it names, and this client. */
export function verifyVisitAnswerToken(secret: string, token: string, visit: { id: string; clientId: string }): boolean {
  const named = visitOfAnswerToken(token);
  if (!named || named.visitId !== visit.id) return false;
  // Compared as text: decoding first would let the unused bits of the last character vary.
  const given = Buffer.from(token.slice(token.lastIndexOf(".") + 1));
  const expected = Buffer.from(signature(secret, visit.id, named.sequence, visit.clientId));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The link's address for one answer: /visit-reply?token=…&answer=confirm|change (its page asks before it changes anything). */
export const visitAnswerUrl = (publicUrl: string, token: string, answer: VisitLinkAnswer) =>
  `${publicUrl}/visit-reply?token=${encodeURIComponent(token)}&answer=${answer}`;
