/**
 * Passwords, through Better Auth: a reset link for a forgotten one (sent by e-mail), the new
 * password chosen with that link, and changing it while signed in.
 */
import type { z } from "zod";
import { resetPasswordSchema, type changePasswordSchema, type forgotPasswordSchema } from "#core/sign-in-schemas.ts";
import { defineOperation } from "../operation.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { anyone } from "../guards.ts";

/** E-mails a reset link; the same answer whether or not the address has an account. */
export async function requestPasswordReset(api: AuthApi, { email }: z.output<typeof forgotPasswordSchema>): Promise<void> {
  const result = await api("/request-password-reset", { email, redirectTo: "/reset-password" });
  if (!result.ok) throw authFailure(result);
}

/** Sets the new password of the reset link's account; every session of it ends. */
export async function resetPassword(api: AuthApi, { token, password }: z.output<typeof resetPasswordSchema>): Promise<void> {
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

/** Changes the signed-in user's password and signs out their other devices (`changePasswordSchema`'s fields). */
export async function changePassword(api: AuthApi, passwords: z.output<typeof changePasswordSchema>): Promise<{ setCookies: string[] }> {
  const result = await api("/change-password", { ...passwords, revokeOtherSessions: true });
  if (!result.ok) throw authFailure(result);
  return { setCookies: result.setCookies };
}
