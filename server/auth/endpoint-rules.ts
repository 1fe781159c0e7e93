/**
 * Our rules on Better Auth's own HTTP endpoints. Its JSON API (`/api/auth/*`) is reachable
 * from any browser, not only through our forms, so every rule a form applies is applied
 * here, where every path passes: per-address limits, the 18+ confirmation, the account type
 * and name rules, one sign-in per TOTP code, and a sign-up answer that does not tell whether
 * an address has an account.
 */
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { eq, sql } from "drizzle-orm";
import { fullNameSchema } from "#core/sign-in-schemas.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { Emit } from "../events/emit.ts";
import { limitedAddress } from "../security/client-address.ts";
import { networkCapsApply } from "../security/network.ts";
import { TOO_MANY_ATTEMPTS, type RateLimits } from "../security/rate-limiter.ts";
import { markSignedOut } from "../security/private-responses.ts";
import { accountSuspended, suspendedAddress } from "./account-standing.ts";
import { takeSignUpZone } from "./time-zone.ts";
import { claimTotpStep } from "./totp-once.ts";

/** Set by our server on every request to the one client address (server/app.ts), replacing anything a client sent. */
export const CLIENT_IP_HEADER = "x-dg-client-ip";

export const AGE_CONFIRMATION_REQUIRED = "Please confirm you are 18 or older";
export const ACCOUNT_TYPE_FIXED = "The account type cannot be changed";
export const SIGN_UPS_TODAY_REACHED = "Too many accounts were made from your address today. Please try again tomorrow.";

export interface EndpointRuleDeps {
  config: Config;
  db: Database;
  /** Its e-mails, and a confirmed address's lead alerts (events/registry.ts): emitted with the database. */
  emit: Emit;
  logger: Logger;
  rateLimits: RateLimits;
}

type Body = Record<string, unknown>;

const tooMany = () => new APIError("TOO_MANY_REQUESTS", { message: TOO_MANY_ATTEMPTS, code: "TOO_MANY_ATTEMPTS" });
const emailKey = (body: Body) => (typeof body.email === "string" ? body.email.trim().toLowerCase() : "");
/** The client's address, as our server set it on the request (server/app.ts). */
const clientAddressOf = (ctx: { headers?: Headers; request?: Request }) =>
  ctx.headers?.get(CLIENT_IP_HEADER) ?? ctx.request?.headers.get(CLIENT_IP_HEADER) ?? "unknown";
/** Failed sign-ins are counted per e-mail address and client address (an IPv6 client's /64). */
const signInKey = (ctx: { headers?: Headers; request?: Request }, body: Body) => `${emailKey(body)}|${limitedAddress(clientAddressOf(ctx))}`;

/** The name rule of the sign-up form, with its message, as a 400. */
export function checkedFullName(name: unknown): string {
  const parsed = fullNameSchema.safeParse(typeof name === "string" ? name : "");
  if (!parsed.success) {
    throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]?.message ?? "Full name is required", code: "INVALID_NAME" });
  }
  return parsed.data;
}

/** A new reply key generation for the user: every reply address issued before stops posting (mail/reply-address.ts). */
async function bumpReplyKeyGeneration(db: Database, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ replyKeyGeneration: sql`${users.replyKeyGeneration} + 1` })
    .where(eq(users.id, userId));
}

export function endpointRules({ config, db, emit, logger, rateLimits }: EndpointRuleDeps) {
  const before = createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as Body;
    switch (ctx.path) {
      case "/sign-in/email": {
        // A suspended account answers before its password is checked, so the same whatever the
        // password: the answer never confirms a guess (issue 30). Nothing is counted for it.
        if (await suspendedAddress(db, emailKey(body))) throw accountSuspended();
        // Counted per address and client: someone guessing from elsewhere never locks the owner out.
        // Taken now, before the password is checked, and given back in `after` unless it was
        // wrong: a check here and a count after would let concurrent guesses all pass the check.
        if (!(await rateLimits.signInFailures.take(signInKey(ctx, body)))) throw tooMany();
        return;
      }
      case "/request-password-reset": {
        if (!(await rateLimits.passwordResetPerEmail.take(emailKey(body)))) throw tooMany();
        return;
      }
      case "/sign-up/email": {
        if (body.ageConfirmed !== true) {
          throw new APIError("BAD_REQUEST", { message: AGE_CONFIRMATION_REQUIRED, code: "AGE_CONFIRMATION_REQUIRED" });
        }
        checkedFullName(body.name);
        const email = emailKey(body);
        if (!(await rateLimits.signUpPerEmail.take(email))) throw tooMany();
        // Per client address and day, every server counting the same (issue 45): the form and
        // this JSON endpoint alike pass here. A sign-up for a taken address counts as any other.
        const client = clientAddressOf(ctx);
        if (networkCapsApply(config, client) && !(await rateLimits.signUpsPerAddressPerDay.take(limitedAddress(client)))) {
          throw new APIError("TOO_MANY_REQUESTS", { message: SIGN_UPS_TODAY_REACHED, code: "SIGN_UPS_TODAY_REACHED" });
        }
        // The browser's zone (issue 47): taken out before Better Auth sees the body, and answered
        // for a taken address as a new account would be.
        return answerExistingAddress(ctx, email, body, takeSignUpZone(body));
      }
      case "/update-user": {
        if ("userType" in body) throw new APIError("BAD_REQUEST", { message: ACCOUNT_TYPE_FIXED, code: "ACCOUNT_TYPE_FIXED" });
        if ("name" in body) checkedFullName(body.name);
        return;
      }
      case "/verify-email": {
        // Our links carry none; Better Auth would redirect to any address given here.
        if (ctx.query?.callbackURL !== undefined) {
          throw new APIError("BAD_REQUEST", { message: "This confirmation link is not valid", code: "CALLBACK_NOT_ALLOWED" });
        }
        return;
      }
      case "/two-factor/verify-totp": {
        await claimTotpStep(ctx, db, body.code);
        return;
      }
    }
  });

  const after = createAuthMiddleware(async (ctx) => {
    const returned = ctx.context.returned;
    switch (ctx.path) {
      case "/sign-in/email": {
        // Only a wrong password (401) keeps its count; a refusal by the limit itself never reaches here.
        if (!(isAPIError(returned) && returned.statusCode === 401)) {
          await rateLimits.signInFailures.refund(signInKey(ctx, (ctx.body ?? {}) as Body));
        }
        return;
      }
      case "/revoke-sessions":
      case "/revoke-other-sessions": {
        // Signed out everywhere: the reply addresses of every notice before now stop posting too
        // (a password change counts through migration 0047's trigger). A single sign-out does not.
        const userId = ctx.context.session?.user.id;
        if (userId && !isAPIError(returned)) await bumpReplyKeyGeneration(db, userId);
        return;
      }
      case "/sign-out": {
        // Whether through /api/auth or our forms (Sign Out, Delete account): the answer tells the
        // browser to drop what it kept of the site (security/private-responses.ts).
        if (!isAPIError(returned)) markSignedOut();
        return;
      }
      case "/list-sessions": {
        // Each session's token is what its cookie holds: a page script (or a stolen session)
        // must not read the account's other sessions' tokens and sign in as them (issue 30).
        if (Array.isArray(returned)) return ctx.json(returned.map(({ token: _token, ...session }: Record<string, unknown>) => session));
        return;
      }
    }
  });

  /**
   * Sign-up for an address that has an account answers like a sign-up that made one and
   * signed nobody in (Better Auth's own generic answer), and tells the owner by e-mail.
   * docs/decisions/0011-sign-up-for-a-taken-address.md says why.
   */
  async function answerExistingAddress(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0], email: string, body: Body, timeZone: string | null) {
    const [owner] = await db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (!owner) return;
    // About as long as making an account takes, so the time does not tell either.
    await ctx.context.password.hash(typeof body.password === "string" ? body.password : "");
    try {
      await emit(db, { kind: "account.sign-up-taken", userId: owner.id, name: owner.name, address: owner.email });
    } catch (error) {
      logger.error({ err: error }, "could not e-mail the owner of an address used to sign up again");
    }
    const now = new Date();
    return ctx.json({
      token: null,
      user: {
        id: ctx.context.generateId({ model: "user" }) || crypto.randomUUID(),
        email,
        name: checkedFullName(body.name),
        image: null,
        emailVerified: false,
        userType: body.userType === "digger" ? "digger" : "consumer",
        twoFactorEnabled: false,
        operatorSince: null,
        timeZone,
        createdAt: now,
        updatedAt: now,
      },
    });
  }

  return { before, after };
}
