/**
 * /account's Phone card (issue 49): the account's number to reuse (users.phone, E.164), whether
 * this account verified it, and what the card may offer. Saving, verifying and removing are the
 * card's operations (save-account-phone.ts, verify-account-phone.ts, remove-account-phone.ts).
 */
import { and, eq } from "drizzle-orm";
import { PHONE_TEXTS, phoneStatus, type PhoneStatus } from "#core/phone-verification.ts";
import type { AppServices } from "../context.ts";
import type { Database, Transaction } from "../db/client.ts";
import { phoneVerifications, users } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { ParsedPhone } from "./parse-phone.ts";
import { displayPhone, parsePhone } from "./parse-phone.ts";
import { sendPhoneCode } from "./send-code.ts";
import { phoneVerificationOn } from "./verification-on.ts";

/** Where a code sent from the card leads: the code step, then back to the card. */
export const ACCOUNT_CODE_STEP = "/verify-phone?next=/account";

export interface AccountPhoneCard {
  /** As a reader writes it; null: no number. */
  number: string | null;
  /** Null with no number, or while phone verification is off (no tick, no verify button). */
  status: PhoneStatus | null;
  verificationOn: boolean;
  emailVerified: boolean;
}

async function accountRow(db: Database | Transaction, userId: string) {
  const [row] = await db.select({ phone: users.phone, emailVerified: users.emailVerified }).from(users).where(eq(users.id, userId));
  return row ?? { phone: null, emailVerified: false };
}

async function verifiedByAccount(db: Database | Transaction, userId: string, phone: string): Promise<boolean> {
  const [row] = await db
    .select({ phone: phoneVerifications.phone })
    .from(phoneVerifications)
    .where(and(eq(phoneVerifications.userId, userId), eq(phoneVerifications.phone, phone)));
  return row !== undefined;
}

export async function accountPhoneCard(services: Pick<AppServices, "db" | "config">, userId: string): Promise<AccountPhoneCard> {
  const { db, config } = services;
  const { phone, emailVerified } = await accountRow(db, userId);
  const verificationOn = phoneVerificationOn(config);
  const verified = phone ? await verifiedByAccount(db, userId, phone) : false;
  return {
    number: phone ? displayPhone(phone) : null,
    status: phoneStatus(verificationOn, phone !== null, verified),
    verificationOn,
    emailVerified,
  };
}

/** What the card's Save or 'Verify this number' did: a code went out (the code step is next), or not and why. */
export type AccountCodeOutcome = { sent: true } | { sent: false; notice: string | null };

/**
 * A code for the account's number, when verification is on and this account has not verified
 * it yet; an account whose e-mail is unconfirmed is told to confirm it first, and gets no text.
 */
export async function sendAccountCode(
  services: AppServices,
  logger: Logger,
  request: { userId: string; phone: ParsedPhone; emailVerified: boolean; clientIp: string },
): Promise<AccountCodeOutcome> {
  if (!phoneVerificationOn(services.config)) return { sent: false, notice: null };
  if (await verifiedByAccount(services.db, request.userId, request.phone.e164)) return { sent: false, notice: null };
  if (!request.emailVerified) return { sent: false, notice: PHONE_TEXTS.confirmEmailFirst };
  await sendPhoneCode(services, logger, { ...request, target: { forAccount: true, gigId: null } });
  return { sent: true };
}

/** The account's stored number, parsed (a number before E.164 is refused as any bad number). */
export async function storedAccountPhone(services: Pick<AppServices, "db" | "config">, userId: string) {
  const row = await accountRow(services.db, userId);
  const phone = row.phone ? parsePhone(row.phone, services.config.defaultPhoneCountry) : null;
  return { phone, emailVerified: row.emailVerified };
}
