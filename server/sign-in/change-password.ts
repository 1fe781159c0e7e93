/** /account's Change password, through Better Auth: the current password, then the new one. */
import type { z } from "zod";
import { changePasswordSchema } from "#core/sign-in-schemas.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** Changes the signed-in user's password and signs out their other devices (`changePasswordSchema`'s fields). */
async function changePassword(api: AuthApi, passwords: z.output<typeof changePasswordSchema>): Promise<{ setCookies: string[] }> {
  const result = await api("/change-password", { ...passwords, revokeOtherSessions: true });
  if (!result.ok) throw authFailure(result);
  return { setCookies: result.setCookies };
}

export const changeAccountPassword = defineOperation({
  access: ACCOUNT_FORM,
  input: changePasswordSchema,
  run: ({ authApi, input }) => changePassword(authApi, input),
});
