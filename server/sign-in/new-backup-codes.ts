/** /account's New backup codes: the password again; the old codes stop working. */
import { passwordConfirmationSchema } from "#core/sign-in-schemas.ts";
import type { AuthApi } from "../auth/api.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { dataOf, type PasswordConfirmation } from "./two-factor.ts";

/** New backup codes; the old ones stop working. */
async function makeBackupCodes(api: AuthApi, { password }: PasswordConfirmation): Promise<{ backupCodes: string[] }> {
  const { backupCodes } = dataOf(await api<{ backupCodes: string[] }>("/two-factor/generate-backup-codes", { password }));
  return { backupCodes };
}

export const newBackupCodes = defineOperation({
  access: ACCOUNT_FORM,
  input: passwordConfirmationSchema,
  run: ({ authApi, input }) => makeBackupCodes(authApi, input),
});
