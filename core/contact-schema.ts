/**
 * The contact form's rules (spec sections 5 and 9) with their messages. Shared by the
 * browser, for quick feedback, and the server, which always validates again.
 */
import { z } from "zod";

import { CONTACT_LIMITS, INVALID_EMAIL, MISSING_REQUIRED_FIELDS } from "./contact-texts.ts";

export { CONTACT_LIMITS, CONTACT_MESSAGE_ROWS, CONTACT_SENT, INVALID_EMAIL, MISSING_REQUIRED_FIELDS } from "./contact-texts.ts";

const REQUIRED = { name: "Name is required", email: "Email is required", message: "Message is required" } as const;
/** Beside the field; the notice is the spec's INVALID_EMAIL (different words, so the page never shows one text twice). */
const EMAIL_FORMAT = "Enter an e-mail address such as name@example.com";
const tooLong = (field: string, max: number) => `${field} must be at most ${max} characters`;

/** One line of text: any run of whitespace (line breaks included) becomes one space. */
const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();
/** Line breaks as the browser counts them (a submitted textarea sends CRLF). */
const normalizeLineBreaks = (value: string) => value.replace(/\r\n?/g, "\n").trim();

const REQUIRED_FIELDS: ReadonlySet<PropertyKey> = new Set(["name", "email", "message"]);

/**
 * The form's fields, each with its own message, and the spec's notice first: a missing
 * required field ('Please fill in all required fields'), else an invalid e-mail address
 * ('Please enter a valid email address'), else the first field's problem.
 */
export const contactSchema = z
  .object({
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
  })
  // Runs even when fields failed: it reads their issues (messages are not filled in yet, so by kind).
  .superRefine(
    (_form, ctx) => {
      const missing = ctx.issues.some(
        (issue) =>
          REQUIRED_FIELDS.has(issue.path?.[0] ?? "") &&
          (issue.code === "invalid_type" || (issue.code === "too_small" && issue.minimum === 1)),
      );
      const badEmail = ctx.issues.some((issue) => issue.code === "invalid_format" && issue.format === "email");
      const notice = missing ? MISSING_REQUIRED_FIELDS : badEmail ? INVALID_EMAIL : null;
      if (notice) ctx.issues.unshift({ code: "custom", message: notice, input: ctx.value, path: [] });
    },
    { when: () => true },
  );
export type ContactMessage = z.output<typeof contactSchema>;
