/**
 * 'Verify this number' on My Gigs and Edit Gig (issue 49): a code for one of my gigs' numbers,
 * target that gig, so that verifying it marks the gig verified and stores its number in E.164
 * (a free-text number of before too: checkPhoneCode rewrites it). Anyone else's gig, whatever
 * the id, is 'Gig not found'.
 */
import { eq } from "drizzle-orm";
import { gigPhoneSchema } from "#core/gig-schema.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withRequest } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { parsePhone } from "../phones/parse-phone.ts";
import { sendPhoneCode } from "../phones/send-code.ts";
import { MY_GIGS } from "./access.ts";
import { gigNotFound, ownGig } from "./gig-owner.ts";

const notTextable = () => new AppError("invalid_input", PHONE_TEXTS.invalidNumber, { fieldErrors: { contactPhone: PHONE_TEXTS.invalidNumber } });

/** Sends the code (`verified: false`), or says the number is verified already (`verified: true`, nothing sent). */
export const verifyGigPhone = defineOperation({
  access: withRequest(MY_GIGS),
  input: gigPhoneSchema,
  async run({ services, user, clientIp, logger, input }): Promise<{ gigId: string; verified: boolean }> {
    const { db, config } = services;
    const row = input.gigId ? await ownGig(db, user.id, input.gigId, false) : null;
    if (!row) throw gigNotFound();
    const { gig } = row;
    if (!gig.contactPhone) throw notTextable();
    if (gig.phoneVerifiedAt) return { gigId: gig.id, verified: true };
    // A free-text number of before that is no number that can receive texts: the field's message, to correct it first.
    const phone = parsePhone(gig.contactPhone, config.defaultPhoneCountry);
    if (!phone) throw notTextable();
    const [account] = await db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, user.id));
    await sendPhoneCode(services, logger, {
      userId: user.id,
      emailVerified: account?.emailVerified ?? false,
      phone,
      target: { forAccount: false, gigId: gig.id },
      clientIp,
    });
    return { gigId: gig.id, verified: false };
  },
});
