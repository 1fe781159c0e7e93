/** /account's Phone card, 'Verify this number' (issue 49): a code to the account's saved number; the code step is next. */
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { AppError } from "../errors.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { sendAccountCode, storedAccountPhone } from "./account-phone.ts";
import { phoneVerificationOn } from "./verification-on.ts";

export const verifyAccountPhone = defineOperation({
  access: ACCOUNT_FORM,
  async run({ services, user, logger, clientIp }) {
    if (!phoneVerificationOn(services.config)) throw new AppError("unavailable", PHONE_TEXTS.unavailable);
    const { phone, emailVerified } = await storedAccountPhone(services, user.id);
    if (!phone) throw new AppError("invalid_input", PHONE_TEXTS.invalidNumber, { fieldErrors: { accountPhone: PHONE_TEXTS.invalidNumber } });
    return sendAccountCode(services, logger, { userId: user.id, phone, emailVerified, clientIp });
  },
});
