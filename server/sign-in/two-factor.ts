/**
 * Two-factor authentication with an authenticator app (TOTP), through Better Auth: setting
 * it up from the account page (the password again, then a first code), turning it off,
 * making new backup codes, and the code asked for at sign-in.
 */
import QRCode from "qrcode";
import type { z } from "zod";
import type { passwordConfirmationSchema, twoFactorCodeSchema } from "#core/sign-in-schemas.ts";
import { AppError } from "../errors.ts";
import { authFailure, type AuthApi, type AuthResult } from "../auth/api.ts";

/** The password typed again (`passwordConfirmationSchema`), for each change of the set-up. */
type PasswordConfirmation = z.output<typeof passwordConfirmationSchema>;

/** What is shown once while two-factor is being set up: the QR code and the key it holds. */
export interface TwoFactorEnrolment {
  qrCodeSvg: string;
  secretUri: string;
}

/** The data of a call that succeeded; a success without it is a fault. */
function dataOf<T>(result: AuthResult<T>): T {
  if (!result.ok) throw authFailure(result);
  if (!result.data) throw new AppError("failed", "Something went wrong. Please try again.", { status: result.status });
  return result.data;
}

/** Starts the set-up: two-factor is on once a first code is verified (`verifyTwoFactorCode`). */
export async function enableTwoFactor(
  api: AuthApi,
  { password }: PasswordConfirmation,
): Promise<{ enrolment: TwoFactorEnrolment; backupCodes: string[]; setCookies: string[] }> {
  const result = await api<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password });
  const { totpURI, backupCodes } = dataOf(result);
  const qrCodeSvg = await QRCode.toString(totpURI, { type: "svg", margin: 1 });
  return { enrolment: { qrCodeSvg, secretUri: totpURI }, backupCodes, setCookies: result.setCookies };
}

export type SecondFactor = "totp" | "backup-code";

/** A code from the authenticator app, or a backup code: the second step of signing in, or the end of the set-up. */
export async function verifyTwoFactorCode(api: AuthApi, factor: SecondFactor, { code }: z.output<typeof twoFactorCodeSchema>): Promise<{ setCookies: string[] }> {
  const result = await api(factor === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code", { code });
  if (!result.ok) throw authFailure(result);
  return { setCookies: result.setCookies };
}

export async function disableTwoFactor(api: AuthApi, { password }: PasswordConfirmation): Promise<{ setCookies: string[] }> {
  const result = await api("/two-factor/disable", { password });
  if (!result.ok) throw authFailure(result);
  return { setCookies: result.setCookies };
}

/** New backup codes; the old ones stop working. */
export async function makeBackupCodes(api: AuthApi, { password }: PasswordConfirmation): Promise<{ backupCodes: string[] }> {
  const { backupCodes } = dataOf(await api<{ backupCodes: string[] }>("/two-factor/generate-backup-codes", { password }));
  return { backupCodes };
}
