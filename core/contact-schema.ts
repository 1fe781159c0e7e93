/**
 * The contact form's rules (spec sections 5 and 9) with their messages. Shared by the
 * browser, for quick feedback, and the server, which always validates again.
 */
import { z } from "zod";
import { fieldMessages, firstMessage } from "./auth-schemas.ts";

export const CONTACT_LIMITS = { name: 100, email: 255, subject: 200, message: 1000 } as const;
export const CONTACT_MESSAGE_ROWS = 6;

export const MISSING_REQUIRED_FIELDS = "Please fill in all required fields";
export const INVALID_EMAIL = "Please enter a valid email address";
export const CONTACT_SENT = "Message sent successfully! We'll get back to you soon.";

const REQUIRED = { name: "Name is required", email: "Email is required", message: "Message is required" } as const;
const requiredMessages = new Set<string>(Object.values(REQUIRED));
/** Beside the field; the notice is the spec's INVALID_EMAIL (different words, so the page never shows one text twice). */
const EMAIL_FORMAT = "Enter an e-mail address such as name@example.com";
const tooLong = (field: string, max: number) => `${field} must be at most ${max} characters`;

/** One line of text: any run of whitespace (line breaks included) becomes one space. */
const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();
/** Line breaks as the browser counts them (a submitted textarea sends CRLF). */
const normalizeLineBreaks = (value: string) => value.replace(/\r\n?/g, "\n").trim();

export const contactSchema = z.object({
  name: z
    .string({ error: REQUIRED.name })
    .transform(oneLine)
    .pipe(z.string().min(1, REQUIRED.name).max(CONTACT_LIMITS.name, tooLong("Name", CONTACT_LIMITS.name))),
  email: z
    .string({ error: REQUIRED.email })
    .trim()
    .min(1, REQUIRED.email)
    .max(CONTACT_LIMITS.email, tooLong("Email", CONTACT_LIMITS.email))
    .pipe(z.email(EMAIL_FORMAT)),
  subject: z
    .string()
    .optional()
    .transform((value) => oneLine(value ?? ""))
    .pipe(z.string().max(CONTACT_LIMITS.subject, tooLong("Subject", CONTACT_LIMITS.subject))),
  message: z
    .string({ error: REQUIRED.message })
    .transform(normalizeLineBreaks)
    .pipe(z.string().min(1, REQUIRED.message).max(CONTACT_LIMITS.message, tooLong("Message", CONTACT_LIMITS.message))),
});
export type ContactMessage = z.infer<typeof contactSchema>;

export type ContactValidation =
  | { success: true; data: ContactMessage }
  | { success: false; error: string; fieldErrors: Record<string, string> };

/**
 * Validates a submitted contact form. The notice is the spec's: a missing required field
 * comes first ('Please fill in all required fields'), then an invalid e-mail address
 * ('Please enter a valid email address'), then the first other problem. Each field also
 * gets its own message.
 */
export function validateContactForm(input: unknown): ContactValidation {
  const parsed = contactSchema.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  const { issues } = parsed.error;
  const error = issues.some((issue) => requiredMessages.has(issue.message))
    ? MISSING_REQUIRED_FIELDS
    : issues.some((issue) => issue.message === EMAIL_FORMAT)
      ? INVALID_EMAIL
      : firstMessage(parsed.error);
  return {
    success: false,
    error,
    fieldErrors: fieldMessages(parsed.error),
  };
}
