/**
 * /account's Phone card, Save (issue 49): the number to reuse, parsed (parse-phone.ts) and
 * stored in E.164; the old number's verification is forgotten in the same transaction unless
 * a gig of the account still gives it ('changing the number clears its verification'). A number
 * this account has not verified gets a code at once (the code step is next), when verification
 * is on and the e-mail is confirmed.
 */
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import type { Config } from "../config.ts";
import { phoneCodes, users } from "../db/schema.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { sendAccountCode } from "./account-phone.ts";
import { forgetUnusedVerification } from "./forget-verification.ts";
import { parsePhone } from "./parse-phone.ts";

const phoneSchema = (config: Pick<Config, "defaultPhoneCountry">) =>
  z.object({
    accountPhone: z
      .string({ error: PHONE_TEXTS.invalidNumber })
      .max(40, PHONE_TEXTS.invalidNumber)
      .transform((input, context) => {
        const phone = parsePhone(input, config.defaultPhoneCountry);
        if (!phone) context.addIssue({ code: "custom", message: PHONE_TEXTS.invalidNumber });
        return phone ?? z.NEVER;
      }),
  });

export const saveAccountPhone = defineOperation({
  access: ACCOUNT_FORM,
  input: ({ services }) => phoneSchema(services.config),
  async run({ services, user, input, logger, clientIp }) {
    const phone = input.accountPhone;
    const emailVerified = await services.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ phone: users.phone, emailVerified: users.emailVerified })
        .from(users)
        .where(eq(users.id, user.id))
        .for("update");
      await tx.update(users).set({ phone: phone.e164 }).where(eq(users.id, user.id));
      // A code still waiting for the account's old number would put that number back: it goes.
      await tx.delete(phoneCodes).where(and(eq(phoneCodes.userId, user.id), eq(phoneCodes.forAccount, true), ne(phoneCodes.phone, phone.e164)));
      if (row?.phone && row.phone !== phone.e164) await forgetUnusedVerification(tx, user.id, row.phone);
      return row?.emailVerified ?? false;
    });
    return sendAccountCode(services, logger, { userId: user.id, phone, emailVerified, clientIp });
  },
});
