/**
 * Account self-service: reset a forgotten password, change the password, and turn TOTP
 * two-factor authentication on and off, all through Better Auth's API (see api.ts); and the
 * privacy controls: e-mail preferences and deleting the account (server/privacy).
 */
import QRCode from "qrcode";
import { data, type AppLoadContext } from "react-router";
import { changePasswordSchema, fieldMessages, firstMessage, resetPasswordSchema, twoFactorCodeSchema } from "#core/auth-schemas.ts";
import { z } from "zod";
import { redirectWithFlash } from "../flash.ts";
import { confirmsDeletion, DELETE_ACCOUNT_MESSAGES, requestAccountDeletion } from "../privacy/deletion.ts";
import { setPromotionalEmail } from "../privacy/email-preferences.ts";
import { callAuth } from "./api.ts";

export interface AccountFormResult {
  intent?: string;
  error?: string;
  success?: string;
  fieldErrors?: Record<string, string>;
  /** Shown once, while two-factor is being set up or new backup codes were made. */
  enrolment?: { qrCodeSvg: string; secretUri: string };
  backupCodes?: string[];
}

const withCookies = (setCookies: string[]) => {
  const headers = new Headers();
  for (const c of setCookies) headers.append("Set-Cookie", c);
  return headers;
};

export async function resetPassword(context: AppLoadContext, request: Request) {
  const parsed = resetPasswordSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<AccountFormResult>({ error: firstMessage(parsed.error), fieldErrors: fieldMessages(parsed.error) }, { status: 400 });
  }
  const result = await callAuth(context, request, "/reset-password", {
    token: parsed.data.token,
    newPassword: parsed.data.password,
  });
  if (!result.ok) {
    const message = result.status === 400 ? "This reset link is invalid or has expired. Please ask for a new one." : result.message;
    return data<AccountFormResult>({ error: message }, { status: result.status });
  }
  return redirectWithFlash(context.services.config, "/auth", "success", "Your password has been changed. Please sign in.");
}

const passwordOnly = z.object({ password: z.string({ error: "Password is required" }).min(1, "Password is required") });

export async function handleAccountForm(context: AppLoadContext, request: Request) {
  const form = Object.fromEntries(await request.formData());
  const intent = String(form.intent ?? "");
  const fail = (error: string, status = 400, fieldErrors?: Record<string, string>) =>
    data<AccountFormResult>({ intent, error, fieldErrors }, { status });

  switch (intent) {
    case "change-password": {
      const parsed = changePasswordSchema.safeParse(form);
      if (!parsed.success) return fail(firstMessage(parsed.error), 400, fieldMessages(parsed.error));
      const result = await callAuth(context, request, "/change-password", { ...parsed.data, revokeOtherSessions: true });
      if (!result.ok) return fail(result.message, result.status);
      return data<AccountFormResult>(
        { intent, success: "Password changed. You have been signed out on your other devices." },
        { headers: withCookies(result.setCookies) },
      );
    }

    case "enable-two-factor": {
      const parsed = passwordOnly.safeParse(form);
      if (!parsed.success) return fail(firstMessage(parsed.error));
      const result = await callAuth<{ totpURI: string; backupCodes: string[] }>(context, request, "/two-factor/enable", {
        password: parsed.data.password,
      });
      if (!result.ok || !result.data) return fail(result.message, result.status);
      const qrCodeSvg = await QRCode.toString(result.data.totpURI, { type: "svg", margin: 1 });
      return data<AccountFormResult>(
        { intent, enrolment: { qrCodeSvg, secretUri: result.data.totpURI }, backupCodes: result.data.backupCodes },
        { headers: withCookies(result.setCookies) },
      );
    }

    case "confirm-two-factor": {
      const parsed = twoFactorCodeSchema.safeParse(form);
      if (!parsed.success) return fail(firstMessage(parsed.error));
      const result = await callAuth(context, request, "/two-factor/verify-totp", { code: parsed.data.code.replace(/\s+/g, "") });
      if (!result.ok) return fail(result.message, result.status);
      return redirectWithFlash(context.services.config, "/account", "success", "Two-factor authentication is on.", result.setCookies);
    }

    case "disable-two-factor": {
      const parsed = passwordOnly.safeParse(form);
      if (!parsed.success) return fail(firstMessage(parsed.error));
      const result = await callAuth(context, request, "/two-factor/disable", { password: parsed.data.password });
      if (!result.ok) return fail(result.message, result.status);
      return redirectWithFlash(context.services.config, "/account", "success", "Two-factor authentication is off.", result.setCookies);
    }

    case "new-backup-codes": {
      const parsed = passwordOnly.safeParse(form);
      if (!parsed.success) return fail(firstMessage(parsed.error));
      const result = await callAuth<{ backupCodes: string[] }>(context, request, "/two-factor/generate-backup-codes", {
        password: parsed.data.password,
      });
      if (!result.ok || !result.data) return fail(result.message, result.status);
      return data<AccountFormResult>({ intent, backupCodes: result.data.backupCodes, success: "New backup codes made. The old ones no longer work." });
    }

    case "email-preferences": {
      const { user } = await context.session();
      if (!user) return fail("Not authenticated", 401);
      const on = form.promotionalEmail === "on";
      await setPromotionalEmail(context.services.db, user.id, on);
      return data<AccountFormResult>({
        intent,
        success: on ? "Promotional e-mail is on." : "Promotional e-mail is off. Transactional e-mail still arrives.",
      });
    }

    case "delete-account": {
      const { user } = await context.session();
      if (!user) return fail("Not authenticated", 401);
      if (!confirmsDeletion(form.confirmEmail, user.email)) {
        return fail(DELETE_ACCOUNT_MESSAGES.confirm, 400, { confirmEmail: DELETE_ACCOUNT_MESSAGES.confirm });
      }
      await requestAccountDeletion(context.services.db, user.id);
      context.logger.info({ userId: user.id }, "account deletion requested");
      // Every session is gone already; this clears this browser's cookies.
      const signOut = await callAuth(context, request, "/sign-out", {});
      return redirectWithFlash(context.services.config, "/", "success", DELETE_ACCOUNT_MESSAGES.deleted, signOut.setCookies);
    }

    default:
      return fail("Unknown action");
  }
}
