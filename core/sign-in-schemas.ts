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

export const FULL_NAME_MAX_LENGTH = 100;

/**
 * Control characters (CR/LF, NUL, ...) and Unicode's invisible direction and layout marks
 * (right-to-left overrides, isolates, zero-width characters) have no place in a name: they
 * can reorder or hide what others see. They become spaces, runs of spaces become one.
 */
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
export const cleanName = (value: string) => value.replace(UNSHOWABLE, " ").replace(/\s+/g, " ").trim();

/** A person's full name: the same rule on the sign-up form and on every account endpoint. */
export const fullNameSchema = z
  .string({ error: "Full name is required" })
  .transform(cleanName)
  .pipe(
    z
      .string()
      .min(1, "Full name is required")
      .max(FULL_NAME_MAX_LENGTH, `Full name must be at most ${FULL_NAME_MAX_LENGTH} characters`),
  );

/**
 * The browser's time zone, from a hidden field (issue 47): any text, never a reason to refuse a
 * form; the server keeps it only when it is a zone it knows (server/auth/time-zone.ts).
 */
const browserZone = z.unknown().optional().transform((value) => (typeof value === "string" ? value.slice(0, 100) : undefined));

export const signInSchema = z.object({
  email,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  timeZone: browserZone,
});

export const signUpSchema = z.object({
  fullName: fullNameSchema,
  email,
  password,
  userType: z.enum(USER_TYPES, { error: "Please choose Consumer or Digger" }),
  ageConfirmed: z.literal("on", { error: "Please confirm you are 18 or older" }),
  timeZone: browserZone,
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({
  token: requiredText("This reset link is invalid or has expired"),
  password,
});

/**
 * /verify-email's button: the link's token, any value; Better Auth checks it (an invalid,
 * expired or used link, or none, sends the browser on with the same message).
 */
export const confirmEmailSchema = z.object({ token: z.unknown().optional() });

export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required"),
  newPassword: password,
});

/** A code from the authenticator app or a backup code; spaces typed inside it are dropped. */
export const twoFactorCodeSchema = z.object({
  code: z
    .string({ error: "Enter the code" })
    .trim()
    .min(1, "Enter the code")
    .max(32, "That code is not valid")
    .transform((code) => code.replace(/\s+/g, "")),
  timeZone: browserZone,
});

/** The account's password, asked again before a change to two-factor authentication. */
export const passwordConfirmationSchema = z.object({
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
});
