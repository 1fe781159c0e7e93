/**
 * Sending a verification code (issue 49): to a signed-in account with a confirmed e-mail, for a
 * number of a country in SMS_COUNTRIES parsed by `parsePhone`, within the sending limits (per
 * number, account, network and country, shared by every server), at most once a minute. The code replaces the
 * account's previous one; only its HMAC is stored, and the text goes out after the row is
 * written, through the one SMS interface (sms/sender.ts).
 */
import { createHmac, randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { CODE_LENGTH, CODE_MINUTES, CODE_TRIES, PHONE_TEXTS, RESEND_SECONDS, codeMessage } from "#core/phone-verification.ts";
import type { AppServices } from "../context.ts";
import { phoneCodes } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { networkCapsApply, networkOf } from "../security/network.ts";
import type { RateLimiter } from "../security/rate-limiter.ts";
import type { ParsedPhone } from "./parse-phone.ts";
import { waitingCode, type CodeTarget } from "./waiting-code.ts";


export interface CodeRequest {
  userId: string;
  /** The account's e-mail is confirmed: only such accounts may have texts sent. */
  emailVerified: boolean;
  phone: ParsedPhone;
  target: CodeTarget;
  clientIp: string;
}

/** The HMAC a code is kept as: of the account, the number and the code, under the server's secret. */
export function codeHash(secret: string, userId: string, phone: string, code: string): string {
  return createHmac("sha256", secret).update(`phone-code\n${userId}\n${phone}\n${code}`).digest("hex");
}

/** Gives back attempts taken. */
const giveBack = (taken: [RateLimiter, string][]) => Promise.all(taken.map(([limiter, key]) => limiter.refund(key)));

/** Takes one attempt from each limit; when one refuses, gives the others back and refuses. Returns what it took. */
async function takeLimits(limits: [RateLimiter, string][]): Promise<[RateLimiter, string][]> {
  const taken: [RateLimiter, string][] = [];
  for (const [limiter, key] of limits) {
    if (!(await limiter.take(key))) {
      await giveBack(taken);
      throw new AppError("too_many_requests", PHONE_TEXTS.tooManyCodes);
    }
    taken.push([limiter, key]);
  }
  return taken;
}

/** What the log may keep of a provider's refusal: its name and HTTP status, never its message. */
function providerError(error: unknown): { name: string; status?: number } {
  if (!(error instanceof Error)) return { name: "unknown" };
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === undefined ? { name: error.name } : { name: error.name, status };
}

export async function sendPhoneCode(services: AppServices, logger: Logger, request: CodeRequest): Promise<void> {
  const { db, config, rateLimits, sms } = services;
  if (!sms) throw new AppError("unavailable", PHONE_TEXTS.unavailable);
  if (!request.emailVerified) throw new AppError("forbidden", PHONE_TEXTS.confirmEmailFirst);
  const { userId, phone, target } = request;
  // Only to the countries this site texts: the cap per country then bounds the whole day's spend.
  if (!phone.country || !config.smsCountries.includes(phone.country)) throw new AppError("invalid_input", PHONE_TEXTS.countryNotServed);

  const last = await waitingCode(db, userId);
  if (last && last.resendInSeconds > 0) throw new AppError("too_many_requests", PHONE_TEXTS.resendTooSoon(last.resendInSeconds));

  const taken = await takeLimits([
    [rateLimits.phoneCodesPerNumber, phone.e164],
    [rateLimits.phoneCodesPerNumberDay, phone.e164],
    [rateLimits.phoneCodesPerAccount, userId],
    ...(networkCapsApply(config, request.clientIp) ? [[rateLimits.phoneCodesPerNetwork, networkOf(request.clientIp)] as [RateLimiter, string]] : []),
    [rateLimits.phoneCodesPerCountry, phone.country],
  ]);

  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");
  const values = {
    phone: phone.e164,
    codeHash: codeHash(config.authSecret, userId, phone.e164, code),
    forAccount: target.forAccount,
    gigId: target.gigId,
    sentAt: sql`now()`,
    expiresAt: sql`now() + make_interval(mins => ${CODE_MINUTES})`,
    triesLeft: CODE_TRIES,
    providerMessageId: null,
  };
  // The minute between codes holds against two requests at once: the second one's upsert finds the first's row too new.
  const written = await db
    .insert(phoneCodes)
    .values({ userId, ...values })
    .onConflictDoUpdate({
      target: phoneCodes.userId,
      set: values,
      setWhere: sql`${phoneCodes.sentAt} <= now() - make_interval(secs => ${RESEND_SECONDS})`,
    })
    .returning({ userId: phoneCodes.userId });
  if (written.length === 0) {
    // The other request sent the code: this one sent nothing, and counts against no limit (a double click costs one code).
    await giveBack(taken);
    throw new AppError("too_many_requests", PHONE_TEXTS.resendTooSoon(RESEND_SECONDS));
  }

  let messageId: string;
  try {
    ({ messageId } = await sms.send(phone.e164, codeMessage(code)));
  } catch (error) {
    // Neither the number nor the code goes to the log, nor the provider's message, which may echo the
    // number ('... Reason: +1... is not valid'): its error's name and HTTP status only. The account may ask again at once.
    logger.error({ err: providerError(error) }, "a phone code could not be sent");
    await db.execute(sql`delete from phone_codes where user_id = ${userId} and code_hash = ${values.codeHash}`);
    throw new AppError("failed", PHONE_TEXTS.sendFailed, { status: 502 });
  }
  // The text went: the code stands whatever happens to this bookkeeping.
  await db
    .execute(sql`update phone_codes set provider_message_id = ${messageId} where user_id = ${userId} and code_hash = ${values.codeHash}`)
    .catch(() => logger.warn("a phone code's provider id could not be kept"));
}
