/**
 * The account page's Delete my account: the account's own e-mail address typed to confirm,
 * then the deletion (deletion.ts) and this browser signed out.
 */
import { deleteAccountSchema } from "#core/privacy-schemas.ts";
import type { SessionUser } from "#core/session-user.ts";
import type { AuthApi } from "../auth/api.ts";
import { signOut } from "../sign-in/sign-out.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import type { Logger } from "../logger.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import { requestAccountDeletion } from "./deletion.ts";

/**
 * Deletes the user's account, once they have typed its address (`deleteAccountSchema(user.email)`,
 * checked by the operation's input); the cookies returned clear this browser's session.
 */
async function deleteAccount(
  context: { services: Pick<AppServices, "db">; logger: Logger },
  api: AuthApi,
  user: SessionUser,
): Promise<{ setCookies: string[] }> {
  await requestAccountDeletion(context.services.db, user.id);
  context.logger.info({ userId: user.id }, "account deletion requested");
  // Every session is gone already; this clears this browser's cookies.
  return signOut(api);
}

export const deleteMyAccount = defineOperation({
  access: ACCOUNT_FORM,
  // The account's own address, typed to confirm.
  input: ({ user }) => deleteAccountSchema(user.email),
  run: (context) => deleteAccount(context, context.authApi, context.user),
});
