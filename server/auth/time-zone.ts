/**
 * The reader's time zone as a browser tells it (issue 47, decision 0071): a hidden field of the
 * sign-up and sign-in forms, or a cookie across a social sign-in's round trip. Whatever comes is
 * kept only when it is a zone this server knows; anything else is ignored, never an error that
 * stops a sign-in.
 */
import { and, eq, isNull, ne, or } from "drizzle-orm";
import { isTimeZone } from "#core/zoned-dates.ts";
import type { Database, Transaction } from "../db/client.ts";
import { users } from "../db/schema.ts";

/** The column's bound (migration 0049): no IANA name is longer. */
const LONGEST_ZONE = 64;

/** Remembers, across a social sign-in's round trip, the zone the browser gave (social-sign-in.ts). */
export const SIGNIN_ZONE_COOKIE = "dg_signup_zone";

/** `value` when it names a zone this server knows, else null. */
export function readerZone(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 && value.length <= LONGEST_ZONE && isTimeZone(value) ? value : null;
}

/** Keeps the zone a browser gave at sign-in, when it is one (an unknown one changes nothing). */
export async function rememberTimeZone(db: Database | Transaction, userId: string, zone: unknown): Promise<void> {
  const known = readerZone(zone);
  if (!known) return;
  // Unchanged, no write: each write of the row makes the user's session cookies read again (migration 0041).
  await db
    .update(users)
    .set({ timeZone: known })
    .where(and(eq(users.id, userId), or(isNull(users.timeZone), ne(users.timeZone, known))));
}

/**
 * A sign-up's zone, from the endpoint's rule (endpoint-rules.ts) to the create hook (auth.ts) in
 * the request's body under a name of ours: Better Auth would refuse `timeZone` itself (it is not
 * input), and that refusal would tell a free address from a taken one, whose answer the rule
 * makes first. The rule always writes the name, so a client's own value never reaches the hook.
 */
const CHECKED_ZONE = "checkedTimeZone";

/** Takes the zone out of a sign-up's body (checked: null when it is none) and keeps it for the create hook. */
export function takeSignUpZone(body: Record<string, unknown>): string | null {
  const zone = readerZone(body.timeZone);
  delete body.timeZone;
  body[CHECKED_ZONE] = zone;
  return zone;
}

/** The zone `takeSignUpZone` kept in this body. */
export const signUpZoneOf = (body: unknown): string | null =>
  body && typeof body === "object" && CHECKED_ZONE in body ? readerZone((body as Record<string, unknown>)[CHECKED_ZONE]) : null;
