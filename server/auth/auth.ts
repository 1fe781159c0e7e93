/**
 * Better Auth, configured for Digs & Gigs: e-mail and password (min 6), password reset by
 * e-mail, Google/GitHub/LinkedIn, TOTP two-factor with backup codes, HttpOnly SameSite=Lax
 * cookies (Secure when PUBLIC_URL is https, and in production), rate limits on the sensitive
 * endpoints, counted where ours are (server/security/rate-limiter.ts).
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { eq } from "drizzle-orm";
import { APIError } from "better-auth/api";
import { genericOAuth, twoFactor } from "better-auth/plugins";
import {
  cleanName,
  FULL_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_TYPES,
  type UserType,
} from "#core/sign-in-schemas.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import { accounts, sessions, twoFactors, users, verifications } from "../db/schema.ts";
import { accountStanding, accountSuspended } from "./account-standing.ts";
import {
  ACCOUNT_TYPE_FIXED,
  AGE_CONFIRMATION_REQUIRED,
  checkedFullName,
  CLIENT_IP_HEADER,
  endpointRules,
  type EndpointRuleDeps,
} from "./endpoint-rules.ts";
import { emailVerificationOptions } from "./email-verification.ts";
import { oauthProviderConfigs } from "./providers.ts";
import type { SessionVersions } from "./session-versions.ts";
import { readerZone, rememberTimeZone, SIGNIN_ZONE_COOKIE, signUpZoneOf } from "./time-zone.ts";

export { CLIENT_IP_HEADER };
/** Remembers, across the provider round trip, which kind of account a social sign-up makes. */
export const SIGNUP_TYPE_COOKIE = "dg_signup_type";
/** Set, for that round trip, when the person confirmed on the Sign Up tab that they are 18 or older. */
export const SIGNUP_AGE_COOKIE = "dg_signup_age";
/**
 * Better Auth endpoints this site does not use, turned off so that they are no attack surface:
 * session and account plumbing for other kinds of clients, its own account deletion (ours
 * keeps payment records and purges later), changing the e-mail (not offered), and
 * two-factor by e-mailed OTP (not configured).
 */
const DISABLED_AUTH_PATHS = [
  "/update-session",
  "/link-social",
  "/unlink-account",
  "/list-accounts",
  "/refresh-token",
  "/get-access-token",
  "/account-info",
  "/delete-user",
  "/delete-user/callback",
  "/change-email",
  "/verify-password",
  "/two-factor/send-otp",
  "/two-factor/verify-otp",
];
/** Better Auth's cookie names start with this: `dg.session_token` (`__Secure-` with secure cookies). */
export const AUTH_COOKIE_PREFIX = "dg";

const CLIENT_MISTAKES = /^(Provider not found|Failed to parse state|State not found|Invalid (callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL))/i;

/**
 * How long a signed cookie may stand for the session's row (decision 0053): its versions make a
 * change count at once; this bounds what a listener that died without a word could miss.
 */
const COOKIE_CACHE_SECONDS = 60;

export function createAuth(deps: EndpointRuleDeps & { sessionVersions?: SessionVersions }) {
  const { config, db, emit, logger, rateLimits, sessionVersions } = deps;
  return betterAuth({
    appName: PRODUCT_NAME,
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    disabledPaths: DISABLED_AUTH_PATHS,
    hooks: endpointRules(deps),
    // Its error page never renders: whatever reaches it goes to /auth, which shows only our own
    // message for the code (server/app.ts answers the page's usual address itself: error-page.ts).
    // `throw`: a fault that is not Better Auth's own refusal (the database away) leaves its handler
    // as it came, so that it is answered as every other fault is (503 when the database is away),
    // not as a 500 of Better Auth's that the account operations would wrap.
    onAPIError: { errorURL: `${config.publicUrl}/auth`, throw: true },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    user: {
      additionalFields: {
        // No default here: the create hook decides (form field, or the social sign-up cookie).
        userType: { type: "string", required: false, input: true },
        // Read by every session lookup (the console's guard); never input: only `npm run operator` sets it.
        operatorSince: { type: "date", required: false, input: false },
        // The reader's zone (issue 47): written by our sign-in and /account operations, never
        // taken from Better Auth's API as it comes.
        timeZone: { type: "string", required: false, input: false },
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
        await emit(db, { kind: "account.password-reset", userId: user.id, name: user.name, address: user.email, token });
      },
    },
    emailVerification: emailVerificationOptions(deps),
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // A signed-in request reads its session from a signed cookie, not the database, while no
      // change to the user's sessions or row has been heard since it was written (versions from
      // migration 0041's notices, session-versions.ts); without the bus, always the database.
      ...(sessionVersions && {
        cookieCache: {
          enabled: true,
          maxAge: COOKIE_CACHE_SECONDS,
          version: (_session: unknown, user: { id: string }) => sessionVersions.version(user.id),
        },
      }),
    },
    account: { accountLinking: { enabled: true, trustedProviders: ["google", "github", "linkedin"] } },
    databaseHooks: {
      session: {
        create: {
          // A deleted account (awaiting its purge) never gets a session again, by any sign-in method.
          before: async (session) => {
            // A suspended one neither (issue 22): the message is the sign-in form's.
            const standing = await accountStanding(db, session.userId);
            if (standing === "deleted") throw new APIError("FORBIDDEN", { message: "This account has been deleted." });
            if (standing === "suspended") throw accountSuspended();
          },
          // The check above and the session's insert are not atomic: a suspension (or deletion)
          // that committed in between has already deleted the account's sessions, so this one
          // would outlive it. Look again under a share lock once the session exists: either the
          // suspension is seen (this session goes), or it starts after this and deletes it.
          after: async (session, ctx) => {
            if ((await accountStanding(db, session.userId, { locked: true })) !== "good") {
              await db.delete(sessions).where(eq(sessions.id, session.id));
              return;
            }
            // A social sign-in brings the browser's zone in its cookie (social-sign-in.ts).
            if (ctx?.path?.startsWith("/callback") || ctx?.path?.startsWith("/oauth2/callback")) {
              await rememberTimeZone(db, session.userId, cookieOf(ctx.request?.headers ?? ctx.headers, SIGNIN_ZONE_COOKIE));
            }
          },
        },
      },
      user: {
        create: {
          before: async (user, ctx) => {
            const headers = ctx?.request?.headers ?? ctx?.headers;
            const viaForm = ctx?.path === "/sign-up/email";
            // The e-mail sign-up checked its body (endpoint-rules.ts); a social sign-up brings the
            // confirmation from the Sign Up tab in a cookie, or makes no account.
            if (!viaForm && cookieOf(headers, SIGNUP_AGE_COOKIE) !== "1") {
              throw new APIError("BAD_REQUEST", { message: AGE_CONFIRMATION_REQUIRED, code: "AGE_CONFIRMATION_REQUIRED" });
            }
            const requested = user.userType ?? cookieOf(headers, SIGNUP_TYPE_COOKIE);
            const userType: UserType = requested === undefined ? "consumer" : (requested as UserType);
            if (!USER_TYPES.includes(userType)) throw new APIError("BAD_REQUEST", { message: "Please choose Consumer or Digger" });
            // The browser's zone: the form's (taken out of the body by endpoint-rules.ts), or the social sign-up's cookie.
            const timeZone = viaForm ? signUpZoneOf(ctx?.body) : readerZone(cookieOf(headers, SIGNIN_ZONE_COOKIE));
            return { data: { ...user, name: viaForm ? checkedFullName(user.name) : providerName(user.name), userType, timeZone } };
          },
        },
        update: {
          // The account type is chosen once, at sign-up (the database refuses a change too);
          // a name follows the sign-up form's rule on every path.
          before: async (data) => {
            if ("userType" in data) throw new APIError("BAD_REQUEST", { message: ACCOUNT_TYPE_FIXED });
            if ("operatorSince" in data) throw new APIError("BAD_REQUEST", { message: "The operator role is not set through the API" });
            return "name" in data ? { data: { ...data, name: checkedFullName(data.name) } } : undefined;
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      // Shared by every server process on PostgreSQL; this process's memory on PGlite.
      customStorage: rateLimits.betterAuth,
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
      // Better Auth turns its origin and callback-URL checks off when NODE_ENV=test or TEST is
      // set: always on here, so the tests see what production does and no variable turns them off.
      disableOriginCheck: false,
      cookiePrefix: AUTH_COOKIE_PREFIX,
      // From configuration only: never the request's scheme, which is http from a TLS-ending proxy.
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.secureCookies },
      // Only our header, set by server/app.ts from the one client address (TRUST_PROXY): never
      // X-Forwarded-For, which Better Auth reads by default.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      // Refused client input (a bad callback URL, an unknown provider, a forged OAuth state) is
      // the client's mistake, not ours: a warning, so that error-level logs mean a fault.
      log: (level, message, ...args) =>
        logger[level === "error" && CLIENT_MISTAKES.test(message) ? "warn" : level]({ args }, `auth: ${message}`),
    },
    plugins: [
      twoFactor({ issuer: PRODUCT_NAME, backupCodeOptions: { amount: 10, length: 10 } }),
      genericOAuth({ config: oauthProviderConfigs(config) }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** A provider's name (social sign-in), cut to fit instead of refused: an unusual profile never blocks signing in. */
function providerName(name: unknown): string {
  return cleanName(String(name ?? "")).slice(0, FULL_NAME_MAX_LENGTH).trim() || "Digs & Gigs member";
}

function cookieOf(headers: Headers | undefined, wanted: string): string | undefined {
  const cookie = headers?.get("cookie");
  if (!cookie) return undefined;
  for (const part of cookie.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === wanted) return decodeURIComponent(value.join("="));
  }
  return undefined;
}
