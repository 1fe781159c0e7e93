/** /account's Turn off two-factor: the password again. */
import { passwordConfirmationSchema } from "#core/sign-in-schemas.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import type { PasswordConfirmation } from "./two-factor.ts";

async function disableTwoFactor(api: AuthApi, { password }: PasswordConfirmation): Promise<{ setCookies: string[] }> {
  const result = await api("/two-factor/disable", { password });
  if (!result.ok) throw authFailure(result);
  return { setCookies: result.setCookies };
}

export const turnOffTwoFactor = defineOperation({
  access: ACCOUNT_FORM,
  input: passwordConfirmationSchema,
  run: ({ authApi, input }) => disableTwoFactor(authApi, input),
});
