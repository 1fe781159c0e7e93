/** /auth's second step of signing in with a backup code instead of the app's code. */
import { twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { verifyTwoFactorCode } from "./two-factor.ts";

export const verifyBackupCodeForm = defineOperation({
  access: anyone,
  input: twoFactorCodeSchema,
  run: ({ authApi, services: { db }, input }) => verifyTwoFactorCode(authApi, db, "backup-code", input),
});
