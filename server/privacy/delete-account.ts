/**
 * The account page's Delete my account: the account's own e-mail address typed to confirm,
 * then the deletion (deletion.ts) and this browser signed out.
 */
import type { SessionUser } from "#core/session-user.ts";
import { deleteAccountSchema } from "#core/privacy-schemas.ts";
import type { AuthApi } from "../auth/api.ts";
import { signOut } from "../auth/sign-out.ts";
import { parsedInput } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { AppServices } from "../services.ts";
import { requestAccountDeletion } from "./deletion.ts";

/** Deletes the user's account; the cookies returned clear this browser's session. */
export async function deleteAccount(
  context: { services: Pick<AppServices, "db">; logger: Logger },
  api: AuthApi,
  user: SessionUser,
  form: FormData,
): Promise<{ setCookies: string[] }> {
  parsedInput(deleteAccountSchema(user.email), Object.fromEntries(form));
  await requestAccountDeletion(context.services.db, user.id);
  context.logger.info({ userId: user.id }, "account deletion requested");
  // Every session is gone already; this clears this browser's cookies.
  return signOut(api);
}
