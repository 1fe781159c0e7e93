/**
 * /auth's Forgot password: a reset link sent by e-mail, through Better Auth. The new password
 * chosen with that link is reset-password.ts; changing it while signed in, change-password.ts.
 */
import type { z } from "zod";
import { forgotPasswordSchema } from "#core/sign-in-schemas.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** E-mails a reset link; the same answer whether or not the address has an account. */
async function requestPasswordReset(api: AuthApi, { email }: z.output<typeof forgotPasswordSchema>): Promise<void> {
  const result = await api("/request-password-reset", { email, redirectTo: "/reset-password" });
  if (!result.ok) throw authFailure(result);
}

export const forgotPasswordForm = defineOperation({
  access: anyone,
  input: forgotPasswordSchema,
  run: ({ authApi, input }) => requestPasswordReset(authApi, input),
});
