import type { SessionUser } from "#app/lib/user.ts";
import type { Auth } from "./auth.ts";

export interface SessionLookup {
  user: SessionUser | null;
  /** Cookies Better Auth refreshed (sliding expiry), to forward on the response. */
  setCookies: string[];
}

/** The signed-in user of a request, as the pages may see it. */
export async function lookupSession(auth: Auth, headers: Headers): Promise<SessionLookup> {
  const { headers: responseHeaders, response } = await auth.api.getSession({ headers, returnHeaders: true });
  const setCookies = responseHeaders.getSetCookie();
  if (!response) return { user: null, setCookies };
  const { user } = response;
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      userType: user.userType === "digger" ? "digger" : "consumer",
      twoFactorEnabled: Boolean(user.twoFactorEnabled),
    },
    setCookies,
  };
}
