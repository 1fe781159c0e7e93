/** /account's first code from the authenticator app: two-factor is on once it is verified. */
import { twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { verifyTwoFactorCode } from "./two-factor.ts";

export const confirmTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  input: twoFactorCodeSchema,
  run: ({ authApi, services: { db }, input }) => verifyTwoFactorCode(authApi, db, "totp", input),
});
