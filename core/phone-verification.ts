/**
 * Verified phone numbers (issue 49, docs/decisions/0075-verified-phones.md): the texts, the
 * code's rules and the sending limits, shared by the server and the pages. The number itself is
 * parsed on the server only (server/phones/parse-phone.ts, libphonenumber-js), in E.164.
 */

/** A code: 6 random digits, good for 10 minutes, at most 5 tries, used once. */
export const CODE_LENGTH = 6;
export const CODE_MINUTES = 10;
export const CODE_TRIES = 5;
/** A new code may be asked for this long after the last one. */
export const RESEND_SECONDS = 60;

/**
 * What sending codes may cost (SMS pumping): per number, per account, per client network (the
 * /24 or /64) and per country (SMS_DAILY_CAP_PER_COUNTRY, server/config.ts; texts go only to SMS_COUNTRIES), counted
 * across servers with the other limits (server/security/rate-limiter.ts).
 */
export const CODE_LIMITS = {
  perNumber: { max: 3, minutes: 10 },
  /**
   * And a day: without it, accounts enough (5 codes each) could send one number 432 texts a day
   * (harassment through us) and guess its codes 2,160 times a day (docs/security.md).
   */
  perNumberDay: { max: 10, minutes: 24 * 60 },
  perAccount: { max: 5, minutes: 24 * 60 },
  perNetwork: { max: 10, minutes: 60 },
} as const;
/** SMS_DAILY_CAP_PER_COUNTRY when it is not set. */
export const DEFAULT_DAILY_CAP_PER_COUNTRY = 1000;
/** DEFAULT_PHONE_COUNTRY when it is not set: a number typed without +country is read as this country's. */
export const DEFAULT_PHONE_COUNTRY = "US";

export const PHONE_TEXTS = {
  /** The code step's heading line: '{number}' as the client reads it (national or international format). */
  codeSent: (number: string) => `We sent a 6-digit code to ${number}`,
  codeLabel: "Code",
  verify: "Verify",
  sendNewCode: "Send a new code",
  /** Until RESEND_SECONDS have passed since the last code. */
  sendNewCodeIn: (seconds: number) => `Send a new code in ${seconds} s`,
  verified: "Phone verified",
  notVerified: "Phone not verified",
  /** The owner's way to start verifying a number not yet verified. */
  verifyNumber: "Verify this number",
  invalidNumber: "Enter a phone number that can receive text messages",
  /** The code field: not 6 digits. */
  codeFormat: "Enter the 6-digit code",
  wrongCode: (triesLeft: number) => `That code is not right. ${triesLeft === 1 ? "1 try left" : `${triesLeft} tries left`}.`,
  tooManyTries: "Too many tries. Send a new code.",
  expired: "That code has expired. Send a new code.",
  noCode: "No code is waiting for this account. Send a new code.",
  /** The code step without a waiting code (none asked for, or already used): a link back follows. */
  noCodeWaiting: "No code is waiting for this account.",
  goBack: "Go back",
  /** The code step's toast after 'Send a new code'. */
  newCodeSent: "A new code is on its way.",
  /** The code step's hint under the field. */
  codeHint: (minutes: number) => `The code works for ${minutes} minutes. Texts can take a minute to arrive.`,
  tooManyCodes: "Too many codes sent. Try again later.",
  /** A number outside SMS_COUNTRIES: no text goes there (toll fraud's favourite destinations are abroad). */
  countryNotServed: "We cannot send text messages to numbers in that country yet.",
  resendTooSoon: (seconds: number) => `You can send a new code in ${seconds} seconds.`,
  confirmEmailFirst: "Confirm your e-mail address before verifying a phone number.",
  /** Phone verification is off: no SMS provider is set up (production without SMS_PROVIDER). */
  unavailable: "Phone verification is not available right now.",
  sendFailed: "We could not send a text to that number. Check it, or try again later.",
  /** The lead issue dialog, for a number verified before the purchase. */
  verifiedOn: (date: string) => `The client verified this number on ${date}`,
  /** The same line as the client reads it, beside the report on their gig's issues. */
  youVerifiedOn: (date: string) => `You verified this number on ${date}`,
  /** Browse Gigs' filter. */
  verifiedOnlyFilter: "Verified phone only",
  /** /account's lead alerts: only gigs with a verified phone. */
  alertsVerifiedOnly: "Only gigs with a verified phone",
  /** /account's card. */
  accountCardTitle: "Phone",
  accountPhoneLabel: "Phone number",
  accountPhoneHint: "Verified by a text message; it fills in new gigs.",
  /** The card's line while phone verification is off (no SMS provider). */
  accountPhoneHintNoVerification: "It fills in new gigs.",
  accountPhoneSaved: "Phone number saved.",
  accountPhoneRemoved: "Phone number removed.",
  accountPhoneNone: "No phone number yet. A verified number fills in the gigs you post.",
  save: "Save",
  remove: "Remove",
} as const;

/** The text message with the code: the code first, so that phones offer to fill it in. */
export const codeMessage = (code: string) =>
  `${code} is your Digs & Gigs code. It expires in ${CODE_MINUTES} minutes. Never share it.`;

/** What a digger reads about a gig's phone before buying (issue 49): the number itself only after. */
export type PhoneStatus = "verified" | "not_verified";

/**
 * 'Phone verified' when the gig's client verified its number, 'Phone not verified' when a number
 * was given without it, nothing without a number, and nothing at all while phone verification is
 * off (production without an SMS provider: no tick is ever shown).
 */
export function phoneStatus(verificationOn: boolean, hasPhone: boolean, verifiedAt: unknown): PhoneStatus | null {
  if (!verificationOn || !hasPhone) return null;
  return verifiedAt ? "verified" : "not_verified";
}
