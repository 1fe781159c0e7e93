/**
 * The account page's privacy forms (spec section 1) with their messages: the e-mail
 * preference and the confirmation that deletes the account.
 */
import { z } from "zod";

export const DELETE_ACCOUNT_MESSAGES = {
  confirm: "That is not the e-mail address of this account",
  deleted: "Your account has been deleted. Your personal data will be removed within 30 days.",
} as const;

/** One switch: promotional e-mail on when the box is ticked, off otherwise. */
export const emailPreferencesSchema = z.object({
  promotionalEmail: z
    .unknown()
    .optional()
    .transform((value) => value === "on"),
});

const sameAddress = (typed: unknown, email: string) =>
  typeof typed === "string" && typed.trim().toLowerCase() === email.trim().toLowerCase();

/** Deleting an account takes its own e-mail address, typed again (case and spaces aside). */
export const deleteAccountSchema = (accountEmail: string) =>
  z.object({
    confirmEmail: z.unknown().refine((typed) => sameAddress(typed, accountEmail), DELETE_ACCOUNT_MESSAGES.confirm),
  });
