/**
 * The code step's 'Send a new code' (/verify-phone): a new code to the number of the account's
 * waiting one, for what it was for (the account's number or a gig's), within the limits and the
 * minute between codes that `sendPhoneCode` keeps.
 */
import { eq } from "drizzle-orm";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { withRequest } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { parsePhone } from "./parse-phone.ts";
import { sendPhoneCode } from "./send-code.ts";
import { VERIFY_PHONE_PAGE } from "./view-verify-phone.ts";
import { waitingCode } from "./waiting-code.ts";

export const sendNewPhoneCode = defineOperation({
  access: withRequest(VERIFY_PHONE_PAGE),
  async run({ services, user, logger, clientIp }) {
    const { db, config } = services;
    const code = await waitingCode(db, user.id);
    if (!code) throw new AppError("invalid_input", PHONE_TEXTS.noCodeWaiting);
    // Stored in E.164 by the code before it: it parses again, with its calling code.
    const phone = parsePhone(code.phone, config.defaultPhoneCountry);
    if (!phone) throw new AppError("invalid_input", PHONE_TEXTS.invalidNumber);
    const [row] = await db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, user.id));
    await sendPhoneCode(services, logger, {
      userId: user.id,
      emailVerified: row?.emailVerified ?? false,
      phone,
      target: code.target,
      clientIp,
    });
  },
});
