/**
 * A forgotten password's new one, chosen with the reset link (forgot-password.ts sends it),
 * through Better Auth. Changing it while signed in is change-password.ts.
 */
import type { z } from "zod";
import { resetPasswordSchema } from "#core/sign-in-schemas.ts";
import { defineOperation } from "../operation.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { anyone } from "../guards.ts";

/** Sets the new password of the reset link's account; every session of it ends. */
async function resetPassword(api: AuthApi, { token, password }: z.output<typeof resetPasswordSchema>): Promise<void> {
  const result = await api("/reset-password", { token, newPassword: password });
  if (result.status === 400) throw authFailure(result, "This reset link is invalid or has expired. Please ask for a new one.");
  if (!result.ok) throw authFailure(result);
}

/** /reset-password's form: anyone holding a link's token may send it; the token is the key. */
export const resetPasswordForm = defineOperation({
  access: anyone,
  input: resetPasswordSchema,
  run: ({ authApi, input }) => resetPassword(authApi, input),
});
