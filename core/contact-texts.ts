/**
 * The contact form's limits and the texts the page shows, apart from its zod schema
 * (core/contact-schema.ts), so that the page does not download zod to show them
 * (docs/decisions/0041, 0050).
 */
export const CONTACT_LIMITS = { name: 100, email: 255, subject: 200, message: 1000 } as const;
export const CONTACT_MESSAGE_ROWS = 6;

export const MISSING_REQUIRED_FIELDS = "Please fill in all required fields";
export const INVALID_EMAIL = "Please enter a valid email address";
export const CONTACT_SENT = "Message sent successfully! We'll get back to you soon.";
