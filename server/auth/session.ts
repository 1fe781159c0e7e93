import type { SessionUser } from "#core/session-user.ts";
import { getSessionCookie } from "better-auth/cookies";
import { AUTH_COOKIE_PREFIX, type Auth } from "./auth.ts";

export interface SessionLookup {
  user: SessionUser | null;
  /** Cookies Better Auth refreshed (sliding expiry), to forward on the response. */
  setCookies: string[];
  /** The session's id, for what belongs to it (a device's push subscription); never sent to the browser. */
  sessionId?: string;
}

/** The signed-in user of a request, as the pages may see it. */
export async function lookupSession(auth: Auth, headers: Headers): Promise<SessionLookup> {
  // Most page views are signed out: without a session cookie there is nothing to look up,
  // and Better Auth's endpoint machinery costs more than the rest of a small page.
  if (!getSessionCookie(headers, { cookiePrefix: AUTH_COOKIE_PREFIX })) return { user: null, setCookies: [] };
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
