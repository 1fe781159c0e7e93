/**
 * The pages' side of e-mail confirmation (server/auth/email-verification.ts): whether a user
 * confirmed, the button on /verify-email, and sending a new link from My Gigs or a gig's page. Both go through Better Auth's own
 * endpoints, with their checks and rate limits.
 */
import { eq } from "drizzle-orm";
import type { SessionUser } from "#core/session-user.ts";
import { confirmEmailSchema } from "#core/sign-in-schemas.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { authFailure, type AuthApi } from "../auth/api.ts";
import { anyone } from "../guards.ts";

const CONFIRM_EMAIL_MESSAGES = {
  confirmed: "E-mail confirmed. Your gigs are now published.",
  confirmedDigger: "E-mail confirmed.",
  invalidLink: "This confirmation link is invalid or has expired. Send a new one from My Gigs.",
  sent: "Confirmation e-mail sent. Check your inbox.",
  alreadyConfirmed: "Your e-mail is already confirmed.",
} as const;

/** Whether user `userId` confirmed their e-mail: until then their gigs are not published and they buy no lead. */
export async function isEmailConfirmed(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ confirmed: users.emailVerified }).from(users).where(eq(users.id, userId));
  return row?.confirmed ?? false;
}

/** Where confirming leads: a visitor signs in first, a digger goes home, a client to their gigs. */
function confirmationLanding(user: SessionUser | null): string {
  return !user ? "/auth?redirect=/my-gigs" : user.userType === "digger" ? "/" : "/my-gigs";
}

/**
 * Confirms the address the token was sent to. A link that is invalid, expired or used sends
 * the browser on to `landing` with the reason.
 */
async function confirmEmail(api: AuthApi, token: unknown, landing: string): Promise<{ setCookies: string[] }> {
  const result = await api(`/verify-email?token=${encodeURIComponent(typeof token === "string" ? token : "")}`);
  if (!result.ok) throw new AppError("invalid_input", CONFIRM_EMAIL_MESSAGES.invalidLink, { redirectTo: landing });
  return { setCookies: result.setCookies };
}

/** Sends `user` a new confirmation link through `api` (Better Auth on their behalf). */
export async function sendConfirmationAgain(api: AuthApi, user: SessionUser): Promise<{ success: string }> {
  const result = await api<{ code?: string }>("/send-verification-email", { email: user.email });
  if (result.ok) return { success: CONFIRM_EMAIL_MESSAGES.sent };
  throw authFailure(result, result.data?.code === "EMAIL_ALREADY_VERIFIED" ? CONFIRM_EMAIL_MESSAGES.alreadyConfirmed : result.message);
}

/**
 * /verify-email's button (decision 0044): anyone with the link; the signed-in user, if any,
 * decides where the browser lands and what it is told.
 */
export const confirmEmailForm = defineOperation({
  access: anyone,
  input: confirmEmailSchema,
  async run({ authApi, user, input }): Promise<{ landing: string; message: string; setCookies: string[] }> {
    const landing = confirmationLanding(user);
    const { setCookies } = await confirmEmail(authApi, input.token, landing);
    const message = user?.userType === "digger" ? CONFIRM_EMAIL_MESSAGES.confirmedDigger : CONFIRM_EMAIL_MESSAGES.confirmed;
    return { landing, message, setCookies };
  },
});
