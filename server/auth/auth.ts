/**
 * Better Auth, configured for Digs & Gigs: e-mail and password (min 6), password reset by
 * e-mail, Google/GitHub/LinkedIn, TOTP two-factor with backup codes, HttpOnly SameSite=Lax
 * cookies (Secure in production), rate limits on the sensitive endpoints.
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { genericOAuth, twoFactor } from "better-auth/plugins";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_TYPES, type UserType } from "#core/auth-schemas.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { accounts, sessions, twoFactors, users, verifications } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { Mailer } from "../mail/mailer.ts";
import { isDeletedAccount } from "../privacy/deletion.ts";
import { oauthProviderConfigs } from "./providers.ts";

/**
 * The sign-up form checks the name, but Better Auth's own JSON API (`/api/auth/sign-up/email`)
 * takes any string: control characters (NUL cannot be stored) are removed, and a name the
 * form would refuse is refused with the form's message. A provider's name (social sign-in)
 * is cut to fit instead, so an unusual profile never blocks signing in.
 */
function checkedName(name: unknown, path: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const clean = String(name ?? "").replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  const social = path !== undefined && !path.startsWith("/sign-up/");
  if (clean.length > FULL_NAME_MAX_LENGTH) {
    if (social) return clean.slice(0, FULL_NAME_MAX_LENGTH);
    throw new APIError("BAD_REQUEST", { message: `Full name must be at most ${FULL_NAME_MAX_LENGTH} characters` });
  }
  if (!clean) {
    if (social) return "Digs & Gigs member";
    throw new APIError("BAD_REQUEST", { message: "Full name is required" });
  }
  return clean;
}
const FULL_NAME_MAX_LENGTH = 100;

/** Set by our server from the socket, replacing anything a client sent. */
export const CLIENT_IP_HEADER = "x-dg-client-ip";
/** Remembers, across the provider round trip, which kind of account a social sign-up makes. */
export const SIGNUP_TYPE_COOKIE = "dg_signup_type";
/** Better Auth's cookie names start with this: `dg.session_token` (`__Secure-` in production). */
export const AUTH_COOKIE_PREFIX = "dg";
export const APP_NAME = "Digs & Gigs";

interface AuthDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  logger: Logger;
}

export function createAuth({ config, db, mailer, logger }: AuthDeps) {
  const production = config.mode === "production";
  return betterAuth({
    appName: APP_NAME,
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    user: {
      additionalFields: {
        // No default here: the create hook decides (form field, or the social sign-up cookie).
        userType: { type: "string", required: false, input: true },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await mailer.send({
          to: user.email,
          userId: user.id,
          kind: "transactional",
          subject: "Reset your Digs & Gigs password",
          text: [
            `Hello ${user.name},`,
            "",
            "Someone asked to reset the password of your Digs & Gigs account. To choose a new password, open this link within one hour:",
            "",
            link,
            "",
            "The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.",
          ].join("\n"),
        });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    account: { accountLinking: { enabled: true, trustedProviders: ["google", "github", "linkedin"] } },
    databaseHooks: {
      session: {
        create: {
          // A deleted account (awaiting its purge) never gets a session again, by any sign-in method.
          before: async (session) => {
            if (await isDeletedAccount(db, session.userId)) throw new APIError("FORBIDDEN", { message: "This account has been deleted." });
          },
        },
      },
      user: {
        create: {
          before: async (user, ctx) => {
            const requested = user.userType ?? signupTypeFromCookie(ctx?.request?.headers ?? ctx?.headers);
            const userType: UserType = requested === undefined ? "consumer" : (requested as UserType);
            if (!USER_TYPES.includes(userType)) throw new APIError("BAD_REQUEST", { message: "Please choose Consumer or Digger" });
            return { data: { ...user, name: checkedName(user.name, ctx?.path), userType } };
          },
        },
        update: {
          // The account type is chosen once, at sign-up.
          before: async (data) => {
            const { userType: _ignored, ...rest } = data as Record<string, unknown>;
            return { data: rest };
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 120,
      customRules: {
        "/sign-in/email": { window: 60, max: 20 },
        "/sign-up/email": { window: 60, max: 10 },
        "/request-password-reset": { window: 60, max: 10 },
        "/reset-password": { window: 60, max: 10 },
        "/two-factor/*": { window: 60, max: 20 },
      },
    },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: production,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: production },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      log: (level, message, ...args) => logger[level]({ args }, `auth: ${message}`),
    },
    plugins: [
      twoFactor({ issuer: APP_NAME, backupCodeOptions: { amount: 10, length: 10 } }),
      genericOAuth({ config: oauthProviderConfigs(config) }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

function signupTypeFromCookie(headers: Headers | undefined): string | undefined {
  const cookie = headers?.get("cookie");
  if (!cookie) return undefined;
  for (const part of cookie.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SIGNUP_TYPE_COOKIE) return decodeURIComponent(value.join("="));
  }
  return undefined;
}
