/** /auth's second step of signing in: the code from the authenticator app. */
import { twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { verifyTwoFactorCode } from "./two-factor.ts";

export const verifyTotpForm = defineOperation({
  access: anyone,
  input: twoFactorCodeSchema,
  run: ({ authApi, services: { db }, input }) => verifyTwoFactorCode(authApi, db, "totp", input),
});
