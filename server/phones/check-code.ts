/**
 * Checking a code (issue 49): the account's one waiting code, under its row's lock, so that two
 * tries at once count twice. A wrong try is counted and committed before the refusal; the fifth
 * ends the code; a right one is used up, marks the number verified for this account (the gigs
 * with it follow, by trigger), and writes it where the code was asked for when it is still the
 * number there: the account's number, or the gig's (a free-text number of before becomes E.164).
 * Its gigs' lead alerts then run again (the event "phone.verified"): diggers who want only
 * verified phones were left out at posting.
 */
import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import type { AppServices } from "../context.ts";
import { gigs, phoneCodes, phoneVerifications, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { parsePhone } from "./parse-phone.ts";
import { lockAccountPhones } from "./phone-lock.ts";
import { codeHash } from "./send-code.ts";

type Outcome = { ok: true; phone: string; gigId: string | null; forAccount: boolean } | { ok: false; message: string };

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The verified number, and what it was verified for; an `AppError` in the spec's words otherwise. */
export async function checkPhoneCode(
  services: AppServices,
  userId: string,
  code: string,
): Promise<{ phone: string; gigId: string | null; forAccount: boolean }> {
  const { db, config, emit } = services;
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    await lockAccountPhones(tx, userId);
    const [row] = await tx
      .select({
        phone: phoneCodes.phone,
        codeHash: phoneCodes.codeHash,
        triesLeft: phoneCodes.triesLeft,
        forAccount: phoneCodes.forAccount,
        gigId: phoneCodes.gigId,
        expired: sql<boolean>`${phoneCodes.expiresAt} <= now()`,
      })
      .from(phoneCodes)
      .where(eq(phoneCodes.userId, userId))
      .for("update");
    if (!row) return { ok: false, message: PHONE_TEXTS.noCode };
    if (row.triesLeft <= 0) return { ok: false, message: PHONE_TEXTS.tooManyTries };
    if (row.expired) return { ok: false, message: PHONE_TEXTS.expired };
    if (!sameHash(row.codeHash, codeHash(config.authSecret, userId, row.phone, code))) {
      const triesLeft = row.triesLeft - 1;
      await tx.update(phoneCodes).set({ triesLeft }).where(eq(phoneCodes.userId, userId));
      return { ok: false, message: triesLeft === 0 ? PHONE_TEXTS.tooManyTries : PHONE_TEXTS.wrongCode(triesLeft) };
    }
    await tx.delete(phoneCodes).where(eq(phoneCodes.userId, userId));
    await tx.insert(phoneVerifications).values({ userId, phone: row.phone }).onConflictDoNothing();
    // Written only where the number is still the one the code went to: a number changed since
    // (the account's, or the gig's) stays as it now is.
    if (row.forAccount) {
      await tx.update(users).set({ phone: row.phone }).where(and(eq(users.id, userId), or(isNull(users.phone), eq(users.phone, row.phone))));
    }
    if (row.gigId) {
      const [gig] = await tx
        .select({ contactPhone: gigs.contactPhone })
        .from(gigs)
        .where(and(eq(gigs.id, row.gigId), eq(gigs.clientId, userId), isNull(gigs.deletedAt)))
        .for("update");
      // A free-text number of before becomes E.164 (the trigger then reads it as verified).
      if (gig?.contactPhone && gig.contactPhone !== row.phone && parsePhone(gig.contactPhone, config.defaultPhoneCountry)?.e164 === row.phone) {
        await tx.update(gigs).set({ contactPhone: row.phone }).where(eq(gigs.id, row.gigId));
      }
    }
    await emit(tx, { kind: "phone.verified", userId, phone: row.phone });
    return { ok: true, phone: row.phone, gigId: row.gigId, forAccount: row.forAccount };
  });
  if (!outcome.ok) throw new AppError("invalid_input", outcome.message, { fieldErrors: { code: outcome.message } });
  return { phone: outcome.phone, gigId: outcome.gigId, forAccount: outcome.forAccount };
}
