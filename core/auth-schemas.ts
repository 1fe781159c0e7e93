/**
 * The account forms' rules (spec section 5) with their messages. Shared by the browser,
 * for quick feedback, and the server, which always validates again.
 */
import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const USER_TYPES = ["consumer", "digger"] as const;
export type UserType = (typeof USER_TYPES)[number];

const requiredText = (message: string) =>
  z.string({ error: message }).trim().min(1, message);
const email = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(255, "Email must be at most 255 characters")
  .pipe(z.email("Please enter a valid email address"));
const password = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const signInSchema = z.object({
  email,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
});

export const signUpSchema = z.object({
  fullName: requiredText("Full name is required").pipe(z.string().max(100, "Full name must be at most 100 characters")),
  email,
  password,
  userType: z.enum(USER_TYPES, { error: "Please choose Consumer or Digger" }),
  ageConfirmed: z.literal("on", { error: "Please confirm you are 18 or older" }),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({
  token: requiredText("This reset link is invalid or has expired"),
  password,
});

export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required"),
  newPassword: password,
});

export const twoFactorCodeSchema = z.object({
  code: z
    .string({ error: "Enter the code" })
    .trim()
    .min(1, "Enter the code")
    .max(32, "That code is not valid"),
});

/** The first message of a failed parse: the spec shows it as a toast. */
export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Please check the form";
}

/** Field-by-field messages, for showing each beside its field. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
