/**
 * Our rules on Better Auth's own HTTP endpoints. Its JSON API (`/api/auth/*`) is reachable
 * from any browser, not only through our forms, so every rule a form applies is applied
 * here, where every path passes: per-address limits, the 18+ confirmation, the account type
 * and name rules, one sign-in per TOTP code, and a sign-up answer that does not tell whether
 * an address has an account.
 */
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import { fullNameSchema } from "#core/sign-in-schemas.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { Emit } from "../events/emit.ts";
import { limitedAddress } from "../security/client-address.ts";
import { TOO_MANY_ATTEMPTS, type RateLimits } from "../security/rate-limiter.ts";
import { accountSuspended, suspendedAddress } from "./account-standing.ts";
import { claimTotpStep } from "./totp-once.ts";

/** Set by our server on every request to the one client address (server/app.ts), replacing anything a client sent. */
export const CLIENT_IP_HEADER = "x-dg-client-ip";

export const AGE_CONFIRMATION_REQUIRED = "Please confirm you are 18 or older";
export const ACCOUNT_TYPE_FIXED = "The account type cannot be changed";

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
/** Failed sign-ins are counted per e-mail address and client address (set by our server; an IPv6 client's /64). */
const signInKey = (ctx: { headers?: Headers; request?: Request }, body: Body) =>
  `${emailKey(body)}|${limitedAddress(ctx.headers?.get(CLIENT_IP_HEADER) ?? ctx.request?.headers.get(CLIENT_IP_HEADER) ?? "unknown")}`;

/** The name rule of the sign-up form, with its message, as a 400. */
export function checkedFullName(name: unknown): string {
  const parsed = fullNameSchema.safeParse(typeof name === "string" ? name : "");
  if (!parsed.success) {
    throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]?.message ?? "Full name is required", code: "INVALID_NAME" });
  }
  return parsed.data;
}

export function endpointRules({ db, emit, logger, rateLimits }: EndpointRuleDeps) {
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
        return answerExistingAddress(ctx, email, body);
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
  async function answerExistingAddress(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0], email: string, body: Body) {
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
        createdAt: now,
        updatedAt: now,
      },
    });
  }

  return { before, after };
}
