/** Signing out: Better Auth ends the session on the server. */
import type { AuthApi } from "./api.ts";

/** Ends the session; the cookies returned clear it in the browser. */
export async function signOut(api: AuthApi): Promise<{ setCookies: string[] }> {
  const { setCookies } = await api("/sign-out", {});
  return { setCookies };
}
