/**
 * The operations behind /auth: sign in (with the two-factor step), sign up, forgot
 * password, and starting a social sign-in. Each validates with core's rules, applies the
 * per-e-mail limits, and calls Better Auth; a success is a redirect with a flash toast.
 */
import { data, redirect, type AppLoadContext } from "react-router";
import {
  fieldMessages,
  firstMessage,
  forgotPasswordSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
} from "#core/auth-schemas.ts";
import { OAUTH_PROVIDERS, type OAuthProviderId } from "../config.ts";
import { redirectWithFlash } from "../flash.ts";
import { TOO_MANY_ATTEMPTS } from "../security/rate-limiter.ts";
import { callAuth } from "./api.ts";
import { SIGNUP_TYPE_COOKIE } from "./auth.ts";
import { PROVIDER_NAMES } from "./providers.ts";

export interface AuthFormResult {
  intent: string;
  error?: string;
  success?: string;
  fieldErrors?: Record<string, string>;
  /** Password accepted; the account wants its second factor. */
  twoFactor?: boolean;
}

const failure = (intent: string, error: string, status = 400, fieldErrors?: Record<string, string>) =>
  data<AuthFormResult>({ intent, error, fieldErrors }, { status });

export async function handleAuthForm(context: AppLoadContext, request: Request, redirectTo: string) {
  const form = Object.fromEntries(await request.formData());
  const intent = String(form.intent ?? "");
  const { config, rateLimits } = context.services;

  switch (intent) {
    case "sign-in": {
      const parsed = signInSchema.safeParse(form);
      if (!parsed.success) return failure(intent, firstMessage(parsed.error), 400, fieldMessages(parsed.error));
      const { email, password } = parsed.data;
      const emailKey = email.toLowerCase();
      if (rateLimits.signInFailuresPerEmail.isLimited(emailKey)) return failure(intent, TOO_MANY_ATTEMPTS, 429);
      const result = await callAuth<{ twoFactorRedirect?: boolean }>(context, request, "/sign-in/email", {
        email,
        password,
        rememberMe: true,
      });
      if (!result.ok) {
        if (result.status === 401) rateLimits.signInFailuresPerEmail.record(emailKey);
        return failure(intent, result.message, result.status);
      }
      if (result.data?.twoFactorRedirect) {
        const headers = new Headers();
        for (const c of result.setCookies) headers.append("Set-Cookie", c);
        return data<AuthFormResult>({ intent, twoFactor: true }, { headers });
      }
      return redirectWithFlash(config, redirectTo, "success", "Signed in successfully!", result.setCookies);
    }

    case "verify-totp":
    case "verify-backup-code": {
      const parsed = twoFactorCodeSchema.safeParse(form);
      if (!parsed.success) return data<AuthFormResult>({ intent, twoFactor: true, error: firstMessage(parsed.error) }, { status: 400 });
      const path = intent === "verify-totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
      const result = await callAuth(context, request, path, { code: parsed.data.code.replace(/\s+/g, "") });
      if (!result.ok) return data<AuthFormResult>({ intent, twoFactor: true, error: result.message }, { status: result.status });
      return redirectWithFlash(config, redirectTo, "success", "Signed in successfully!", result.setCookies);
    }

    case "sign-up": {
      const parsed = signUpSchema.safeParse(form);
      if (!parsed.success) return failure(intent, firstMessage(parsed.error), 400, fieldMessages(parsed.error));
      const { fullName, email, password, userType } = parsed.data;
      if (!rateLimits.signUpPerEmail.take(email.toLowerCase())) return failure(intent, TOO_MANY_ATTEMPTS, 429);
      const result = await callAuth(context, request, "/sign-up/email", { name: fullName, email, password, userType });
      if (!result.ok) return failure(intent, result.message, result.status);
      return redirectWithFlash(config, redirectTo, "success", "Account created! Redirecting...", result.setCookies);
    }

    case "forgot-password": {
      const parsed = forgotPasswordSchema.safeParse(form);
      if (!parsed.success) return failure(intent, firstMessage(parsed.error), 400, fieldMessages(parsed.error));
      const email = parsed.data.email;
      if (!rateLimits.passwordResetPerEmail.take(email.toLowerCase())) return failure(intent, TOO_MANY_ATTEMPTS, 429);
      const result = await callAuth(context, request, "/request-password-reset", { email, redirectTo: "/reset-password" });
      if (!result.ok) return failure(intent, result.message, result.status);
      // The same answer whether or not the address has an account.
      return data<AuthFormResult>({ intent, success: "Password reset email sent! Check your inbox." });
    }

    case "social": {
      const provider = String(form.provider ?? "") as OAuthProviderId;
      if (!OAUTH_PROVIDERS.includes(provider)) return failure(intent, "Unknown sign-in provider");
      if (!config.oauth[provider]) {
        return failure(intent, `Sign-in with ${PROVIDER_NAMES[provider]} is not available on this site yet. Please use your e-mail and password.`, 503);
      }
      const userType = form.userType === "digger" ? "digger" : "consumer";
      const result = await callAuth<{ url?: string }>(context, request, "/sign-in/social", {
        provider,
        callbackURL: redirectTo,
        errorCallbackURL: `/auth?redirect=${encodeURIComponent(redirectTo)}`,
        requestSignUp: true,
      });
      if (!result.ok) return failure(intent, result.message, result.status);
      if (!result.data?.url) return failure(intent, "Could not reach the sign-in provider. Please try again.", 502);
      const headers = new Headers();
      for (const c of result.setCookies) headers.append("Set-Cookie", c);
      headers.append(
        "Set-Cookie",
        `${SIGNUP_TYPE_COOKIE}=${userType}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax${config.mode === "production" ? "; Secure" : ""}`,
      );
      return redirect(result.data.url, { headers });
    }

    default:
      return failure(intent, "Unknown action");
  }
}
