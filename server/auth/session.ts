import type { SessionUser } from "#core/session-user.ts";
import { LRUCache } from "lru-cache";
import { getSessionCookie } from "better-auth/cookies";
import { AUTH_COOKIE_PREFIX, type Auth } from "./auth.ts";
import type { SessionVersions } from "./session-versions.ts";

export interface SessionLookup {
  user: SessionUser | null;
  /** Cookies Better Auth refreshed (sliding expiry), to forward on the response. */
  setCookies: string[];
  /** The session's id, for what belongs to it (a device's push subscription); never sent to the browser. */
  sessionId?: string;
}

/** The signed-in user of a request's headers, as the pages may see it. */
export type LookupSession = (headers: Headers) => Promise<SessionLookup>;

/** Cookies this process verified and Better Auth took as they were (below). */
const MAX_VERIFIED = 10_000;

interface Verified {
  lookup: SessionLookup;
  userId: string;
  /** The session version (session-versions.ts) when Better Auth accepted the cookie. */
  version: string;
  /** The end of the signed cookie's life, or of the session's, whichever comes first. */
  until: number;
}

/**
 * The session lookup of every request (decisions 0053 and 0059). Better Auth reads a signed-in
 * request's session from its signed `session_data` cookie: two HMAC verifications and its
 * endpoint machinery, about a tenth of a signed-in page's CPU. A browser sends the same cookies
 * for the cookie's whole minute, so once Better Auth has accepted a set of auth cookies as they
 * were (no cookie written back), this process answers the same set again from memory until the
 * cookie would expire, while the user's session version is unchanged. A version moves at any
 * change to the user's sessions or row (a sign-out, a suspension, a revocation, an operator's
 * removal), and no version matches while the bus is not listening, so each of them still takes
 * effect at the next request, as it does for Better Auth's own check. Any other set of cookies,
 * a cookie near its end, or a request that wrote cookies goes to Better Auth.
 */
export function createSessionLookup(auth: Auth, versions?: SessionVersions, now: () => number = Date.now): LookupSession {
  const verified = new LRUCache<string, Verified>({ max: MAX_VERIFIED });
  return async (headers) => {
    // Most page views are signed out: without a session cookie there is nothing to look up,
    // and Better Auth's endpoint machinery costs more than the rest of a small page.
    if (!getSessionCookie(headers, { cookiePrefix: AUTH_COOKIE_PREFIX })) return { user: null, setCookies: [] };
    const key = versions ? authCookies(headers.get("cookie") ?? "") : null;
    const known = key ? verified.get(key) : undefined;
    if (known) {
      if (known.until > now() && versions!.version(known.userId) === known.version) return { ...known.lookup, setCookies: [] };
      verified.delete(key!);
    }
    const lookup = await betterAuthLookup(auth, headers);
    if (key && versions && lookup.user && lookup.setCookies.length === 0) {
      const until = cookieEnd(key);
      const version = versions.version(lookup.user.id);
      // A request that heard a change while it ran gets a version nothing matches (session-versions.ts).
      if (until !== null && until > now() && !version.startsWith("none-")) verified.set(key, { lookup, userId: lookup.user.id, version, until });
    }
    return lookup;
  };
}

async function betterAuthLookup(auth: Auth, headers: Headers): Promise<SessionLookup> {
  const { headers: responseHeaders, response } = await auth.api.getSession({ headers, returnHeaders: true });
  const setCookies = responseHeaders.getSetCookie();
  if (!response) return { user: null, setCookies };
  const { user, session } = response;
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      userType: user.userType === "digger" ? "digger" : "consumer",
      twoFactorEnabled: Boolean(user.twoFactorEnabled),
      operator: user.operatorSince != null,
    },
    setCookies,
    sessionId: session.id,
  };
}

/**
 * The request's auth cookies (`dg.*`, `__Secure-dg.*` over https), sorted, as one key; null
 * without exactly one unchunked `session_data` cookie (a chunked or missing one goes to Better Auth).
 */
function authCookies(header: string): string | null {
  const pairs: string[] = [];
  let data = 0;
  for (const part of header.split(";")) {
    const pair = part.trim();
    const name = pair.slice(0, pair.indexOf("=")).replace(/^__Secure-/, "");
    if (!name.startsWith(`${AUTH_COOKIE_PREFIX}.`)) continue;
    if (name.startsWith(`${AUTH_COOKIE_PREFIX}.session_data`)) data += name === `${AUTH_COOKIE_PREFIX}.session_data` ? 1 : 2;
    pairs.push(pair);
  }
  return data === 1 ? pairs.sort().join("; ") : null;
}

/**
 * When the `session_data` cookie of an accepted key stops being good: its own `expiresAt` or
 * its session's, whichever is first (Better Auth's compact encoding: base64url JSON; Better Auth
 * verified this very value before it was accepted). Null when it cannot be read.
 */
function cookieEnd(key: string): number | null {
  const pair = key.split("; ").find((p) => p.replace(/^__Secure-/, "").startsWith(`${AUTH_COOKIE_PREFIX}.session_data=`));
  try {
    const value = decodeURIComponent(pair!.slice(pair!.indexOf("=") + 1));
    const data = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as { expiresAt?: unknown; session?: { session?: { expiresAt?: unknown } } };
    const cookieUntil = Number(data.expiresAt);
    const sessionUntil = new Date(data.session?.session?.expiresAt as string).getTime();
    const until = Math.min(cookieUntil, sessionUntil);
    return Number.isFinite(until) ? until : null;
  } catch {
    return null;
  }
}
