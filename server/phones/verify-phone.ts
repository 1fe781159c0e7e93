/**
 * The code step's Verify (/verify-phone): the 6 digits checked against the account's waiting
 * code (check-code.ts: tries, expiry, used once). The page then goes on to `next`.
 */
import { z } from "zod";
import { CODE_LENGTH, PHONE_TEXTS } from "#core/phone-verification.ts";
import { defineOperation } from "../operation.ts";
import { checkPhoneCode } from "./check-code.ts";
import { VERIFY_PHONE_PAGE } from "./view-verify-phone.ts";

const codeSchema = z.object({
  code: z
    .string({ error: PHONE_TEXTS.codeFormat })
    .transform((code) => code.replace(/\s/g, ""))
    .pipe(z.string().regex(new RegExp(`^[0-9]{${CODE_LENGTH}}$`), PHONE_TEXTS.codeFormat)),
});

export const verifyPhone = defineOperation({
  access: VERIFY_PHONE_PAGE,
  input: codeSchema,
  run: ({ services, user, input }) => checkPhoneCode(services, user.id, input.code),
});
