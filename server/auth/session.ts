import type { SessionUser } from "#core/session-user.ts";
import { LRUCache } from "lru-cache";
import { getSessionCookie } from "better-auth/cookies";
import { AUTH_COOKIE_PREFIX, type Auth } from "./auth.ts";
import type { SessionVersions } from "./session-versions.ts";
import { markSessionRead } from "../security/private-responses.ts";

export interface SessionLookup {
  user: SessionUser | null;
  /** Cookies Better Auth refreshed (sliding expiry), to forward on the response. */
  setCookies: string[];
  /** The session's id, for what belongs to it (a device's push subscription); never sent to the browser. */
  sessionId?: string;
}

/** The signed-in user of a request's headers, as the pages may see it. */
export type LookupSession = (headers: Headers) => Promise<SessionLookup>;

/** Cookies this process verified and Better Auth took as they were (below): at most so many, and so many bytes of keys. */
const MAX_VERIFIED = 10_000;
const MAX_KEY_BYTES = 32 * 1024 * 1024;

interface Verified {
  lookup: SessionLookup;
  userId: string;
  /** The session version (session-versions.ts) when Better Auth accepted the cookie. */
  version: string;
  /** The end of the signed cookie's life, or of the session's, whichever comes first. */
  until: number;
}

/** Better Auth's own names for the cookies that decide a session (`__Secure-` ones under secure cookies). */
interface SessionCookieNames {
  token: string;
  data: string;
  dontRemember: string;
}

/**
 * The session lookup of every request (decisions 0053 and 0059). Better Auth reads a signed-in
 * request's session from its signed `session_data` cookie: two HMAC verifications and its
 * endpoint machinery, about a tenth of a signed-in page's CPU. A browser sends the same cookies
 * for the cookie's whole minute, so once Better Auth has accepted a request's session cookies
 * (its own names: the token, the data, the don't-remember mark) as they were (no cookie written
 * back, and the data naming the session it answered), this process answers the same cookies
 * again from memory until the data cookie would expire, while the user's session version is
 * unchanged. A version moves at any change to the user's sessions or row (a sign-out, a
 * suspension, a revocation, an operator's removal), and no version matches while the bus is not
 * listening, so each of them still takes effect at the next request, as it does for Better
 * Auth's own check. Other cookies, a name sent twice, a chunked data cookie, a cookie near its
 * end, or a request that wrote cookies go to Better Auth.
 */
export function createSessionLookup(auth: Auth, versions?: SessionVersions, now: () => number = Date.now): LookupSession {
  const verified = new LRUCache<string, Verified>({ max: MAX_VERIFIED, maxSize: MAX_KEY_BYTES, sizeCalculation: (_value, key) => key.length });
  let names: Promise<SessionCookieNames> | undefined;
  const cookieNames = () =>
    (names ??= auth.$context.then(({ authCookies }) => ({
      token: authCookies.sessionToken.name,
      data: authCookies.sessionData.name,
      dontRemember: authCookies.dontRememberToken.name,
    })));
  return async (headers) => {
    // Most page views are signed out: without a session cookie there is nothing to look up,
    // and Better Auth's endpoint machinery costs more than the rest of a small page.
    if (!getSessionCookie(headers, { cookiePrefix: AUTH_COOKIE_PREFIX })) return { user: null, setCookies: [] };
    // From here the answer depends on the session, good or not: no cache may keep it.
    markSessionRead();
    const cookies = versions ? sessionCookies(headers.get("cookie") ?? "", await cookieNames()) : null;
    const known = cookies ? verified.get(cookies.key) : undefined;
    if (known) {
      // One turn of the event loop first, so that a change already at the bus's socket is
      // counted before the version is compared (Better Auth's own check comes after its
      // verifications' round trips through the thread pool, which gave the notice that time).
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (known.until > now() && versions!.version(known.userId) === known.version) return { ...known.lookup, setCookies: [] };
      verified.delete(cookies!.key);
    }
    const lookup = await betterAuthLookup(auth, headers);
    if (cookies && versions && lookup.user && lookup.setCookies.length === 0) {
      const data = cookieData(cookies.data);
      const version = versions.version(lookup.user.id);
      // A request that heard a change while it ran gets a version nothing matches (session-versions.ts).
      if (data && data.sessionId === lookup.sessionId && data.until > now() && !version.startsWith("none-")) {
        verified.set(cookies.key, { lookup, userId: lookup.user.id, version, until: data.until });
      }
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
      timeZone: typeof user.timeZone === "string" ? user.timeZone : null,
    },
    setCookies,
    sessionId: session.id,
  };
}

/**
 * The request's session cookies by Better Auth's own names, in one key; null without exactly
 * one token and one data cookie, or with any of the three names sent twice.
 */
function sessionCookies(header: string, names: SessionCookieNames): { key: string; data: string } | null {
  const values = new Map<string, string>();
  for (const part of header.split(";")) {
    const pair = part.trim();
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    if (name !== names.token && name !== names.data && name !== names.dontRemember) continue;
    if (values.has(name)) return null;
    values.set(name, pair.slice(at + 1));
  }
  const token = values.get(names.token);
  const data = values.get(names.data);
  if (token === undefined || data === undefined) return null;
  return { key: JSON.stringify([token, data, values.get(names.dontRemember) ?? null]), data };
}

/**
 * What the accepted data cookie says of itself: the session it holds, and when it stops being
 * good (its own `expiresAt` or its session's, whichever is first; Better Auth's compact
 * encoding, base64url JSON, which Better Auth verified before accepting it). Null when unread.
 */
function cookieData(value: string): { sessionId: string; until: number } | null {
  try {
    const data = JSON.parse(Buffer.from(decodeURIComponent(value), "base64url").toString("utf8")) as {
      expiresAt?: unknown;
      session?: { session?: { id?: unknown; expiresAt?: unknown } };
    };
    const session = data.session?.session;
    const until = Math.min(Number(data.expiresAt), new Date(session?.expiresAt as string).getTime());
    return typeof session?.id === "string" && Number.isFinite(until) ? { sessionId: session.id, until } : null;
  } catch {
    return null;
  }
}
