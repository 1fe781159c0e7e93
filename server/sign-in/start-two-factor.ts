/** /account's Turn on two-factor: the password again, then the QR code and the backup codes, shown once. */
import QRCode from "qrcode";
import { passwordConfirmationSchema } from "#core/sign-in-schemas.ts";
import type { AuthApi } from "../auth/api.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { dataOf, type PasswordConfirmation } from "./two-factor.ts";

/** What is shown once while two-factor is being set up: the QR code and the key it holds. */
export interface TwoFactorEnrolment {
  qrCodeSvg: string;
  secretUri: string;
}

/** Starts the set-up: two-factor is on once a first code is verified (confirm-two-factor.ts). */
async function enableTwoFactor(
  api: AuthApi,
  { password }: PasswordConfirmation,
): Promise<{ enrolment: TwoFactorEnrolment; backupCodes: string[]; setCookies: string[] }> {
  const result = await api<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password });
  const { totpURI, backupCodes } = dataOf(result);
  const qrCodeSvg = await QRCode.toString(totpURI, { type: "svg", margin: 1 });
  return { enrolment: { qrCodeSvg, secretUri: totpURI }, backupCodes, setCookies: result.setCookies };
}

export const startTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  input: passwordConfirmationSchema,
  run: ({ authApi, input }) => enableTwoFactor(authApi, input),
});
