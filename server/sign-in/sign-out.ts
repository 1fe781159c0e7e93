/** Signing out: Better Auth ends the session on the server. */
import { defineOperation } from "../operation.ts";
import type { AuthApi } from "../auth/api.ts";
import { anyone } from "../guards.ts";

/** Ends the session; the cookies returned clear it in the browser. */
export async function signOut(api: AuthApi): Promise<{ setCookies: string[] }> {
  const { setCookies } = await api("/sign-out", {});
  return { setCookies };
}

/** The Sign Out form: whoever sends it (a visitor's only ends nothing) gets cookies that clear a session. */
export const signOutForm = defineOperation({
  access: anyone,
  run: ({ authApi }) => signOut(authApi),
});
