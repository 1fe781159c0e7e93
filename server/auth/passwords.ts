/**
 * Passwords, through Better Auth: a reset link for a forgotten one (sent by e-mail), the new
 * password chosen with that link, and changing it while signed in.
 */
import type { changePasswordSchema} from "#core/auth-schemas.ts";
import { forgotPasswordSchema, resetPasswordSchema } from "#core/auth-schemas.ts";
import type { z } from "zod";
import { parsedInput } from "../errors.ts";
import { authFailure, type AuthApi } from "./api.ts";

/** E-mails a reset link; the same answer whether or not the address has an account. */
export async function requestPasswordReset(api: AuthApi, form: FormData): Promise<void> {
  const { email } = parsedInput(forgotPasswordSchema, Object.fromEntries(form));
  const result = await api("/request-password-reset", { email, redirectTo: "/reset-password" });
  if (!result.ok) throw authFailure(result);
}

/** Sets the new password of the reset link's account; every session of it ends. */
export async function resetPassword(api: AuthApi, form: FormData): Promise<void> {
  const { token, password } = parsedInput(resetPasswordSchema, Object.fromEntries(form));
  const result = await api("/reset-password", { token, newPassword: password });
  if (result.status === 400) throw authFailure(result, "This reset link is invalid or has expired. Please ask for a new one.");
  if (!result.ok) throw authFailure(result);
}

/** Changes the signed-in user's password and signs out their other devices (`changePasswordSchema`'s fields). */
export async function changePassword(api: AuthApi, passwords: z.output<typeof changePasswordSchema>): Promise<{ setCookies: string[] }> {
  const result = await api("/change-password", { ...passwords, revokeOtherSessions: true });
  if (!result.ok) throw authFailure(result);
  return { setCookies: result.setCookies };
}
