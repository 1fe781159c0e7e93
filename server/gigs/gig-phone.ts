/**
 * A gig's phone (issue 49): the number typed on Post Gig or Edit Gig read in E.164, and the code
 * that asks its client to verify a new one. Sending and checking codes are server/phones/'s.
 */
import { and, eq, sql } from "drizzle-orm";
import type { PhoneReader } from "#core/gig-schema.ts";
import type { Config } from "../config.ts";
import type { AppServices } from "../context.ts";
import type { Transaction } from "../db/client.ts";
import { gigs, phoneCodes, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { forgetUnusedVerification } from "../phones/forget-verification.ts";
import { parsePhone } from "../phones/parse-phone.ts";
import { sendPhoneCode } from "../phones/send-code.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";

/** The gig form's phone reader: E.164, in DEFAULT_PHONE_COUNTRY's plan when typed without +country. */
export const gigPhoneReader =
  (config: Pick<Config, "defaultPhoneCountry">): PhoneReader =>
  (typed) =>
    parsePhone(typed, config.defaultPhoneCountry)?.e164 ?? null;

/** The code step (/verify-phone), and the page it goes back to once the number is verified (its slashes kept readable). */
export const verifyPhonePath = (next: string) => `/verify-phone?next=${encodeURIComponent(next).replaceAll("%2F", "/")}`;

/** A code sent for a gig's number; or none, with what the client is told instead (a limit's message), if anything. */
export type GigPhoneCode = { sent: true } | { sent: false; notice: string | null };

export const NO_CODE: GigPhoneCode = { sent: false, notice: null };

/**
 * A gig's number changed from `oldPhone` (in the transaction of the change): its verification is
 * forgotten unless the account still gives it elsewhere, and a code waiting for another number
 * of this gig is dropped (verified later, it would write that number back into the gig).
 */
export async function gigPhoneChanged(tx: Transaction, clientId: string, gigId: string, oldPhone: string | null, newPhone: string | null) {
  await forgetUnusedVerification(tx, clientId, oldPhone);
  await tx
    .delete(phoneCodes)
    .where(and(eq(phoneCodes.userId, clientId), eq(phoneCodes.gigId, gigId), sql`${phoneCodes.phone} is distinct from ${newPhone}`));
}

export interface GigCodeRequest {
  userId: string;
  gigId: string;
  clientIp: string;
  logger: Logger;
}

/**
 * After a gig was saved with a new number (posted, or edited): a code to verify it, when phone
 * verification is on, the client's e-mail is confirmed (an unconfirmed account gets no text) and
 * the account has not verified that number already (then the gig shows verified at once). The
 * gig stays saved whatever happens here: a refusal (a sending limit, a failed text) is the
 * notice, and its owner verifies later from My Gigs.
 */
export async function codeForSavedGig(services: AppServices, { userId, gigId, clientIp, logger }: GigCodeRequest): Promise<GigPhoneCode> {
  if (!phoneVerificationOn(services.config)) return NO_CODE;
  const [row] = await services.db
    .select({ phone: gigs.contactPhone, verifiedAt: gigs.phoneVerifiedAt, emailVerified: users.emailVerified })
    .from(gigs)
    .innerJoin(users, eq(users.id, gigs.clientId))
    .where(and(eq(gigs.id, gigId), eq(gigs.clientId, userId)));
  if (!row?.phone || row.verifiedAt || !row.emailVerified) return NO_CODE;
  const phone = parsePhone(row.phone, services.config.defaultPhoneCountry);
  if (!phone) return NO_CODE;
  try {
    await sendPhoneCode(services, logger, { userId, emailVerified: true, phone, target: { forAccount: false, gigId }, clientIp });
    return { sent: true };
  } catch (error) {
    if (error instanceof AppError) return { sent: false, notice: error.message };
    throw error;
  }
}
