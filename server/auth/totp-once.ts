/**
 * A TOTP code is good for one sign-in. Better Auth accepts a code for the current 30-second
 * step and the ones either side, as often as it is sent; we find which step the code belongs
 * to and claim it for the user in one conditional UPDATE, so a code (or an older one) that
 * was already accepted, even by a request racing this one, is refused.
 */
import { createOTP } from "@better-auth/utils/otp";
import { base32 } from "@better-auth/utils/base32";
import { APIError, getSessionFromCtx, type createAuthMiddleware } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { twoFactors, users } from "../db/schema.ts";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const PERIOD_SECONDS = 30;
/** Better Auth's window: the step before and after the current one are accepted too. */
const WINDOW = 1;
const TWO_FACTOR_COOKIE = "two_factor";
/** Secrets imported from other apps are kept as "base32:<secret>" (Better Auth's convention). */
const BASE32_PREFIX = "base32:";

const CODE_ALREADY_USED = "This code has already been used. Wait for the next code and try again.";

/** The user a verify-totp request is about: the signed-in user, or the one halfway through signing in. */
async function userIdOf(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return pending?.value ?? null;
}

/** The time step `code` belongs to for this secret, or null when it matches none in the window. */
async function stepOf(secret: string | Uint8Array, code: string, now = Date.now()): Promise<number | null> {
  const otp = createOTP(secret, { period: PERIOD_SECONDS, digits: 6 });
  const current = Math.floor(now / 1000 / PERIOD_SECONDS);
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    if ((await otp.hotp(step)) === code) return step;
  }
  return null;
}

export async function claimTotpStep(ctx: HookContext, db: Database, code: unknown): Promise<void> {
  if (typeof code !== "string" || !/^\d{6}$/.test(code)) return; // Better Auth refuses it as invalid.
  const userId = await userIdOf(ctx);
  if (!userId) return; // Better Auth answers for a missing session or challenge.
  const [row] = await db.select({ secret: twoFactors.secret }).from(twoFactors).where(eq(twoFactors.userId, userId));
  if (!row) return;
  const decrypted = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret });
  const secret = decrypted.startsWith(BASE32_PREFIX)
    ? base32.decode(decrypted.slice(BASE32_PREFIX.length).toUpperCase())
    : decrypted;
  const step = await stepOf(secret, code);
  if (step === null) return; // A wrong code: Better Auth counts the failure.
  const claimed = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  if (claimed.length === 0) throw new APIError("UNAUTHORIZED", { message: CODE_ALREADY_USED, code: "TOTP_CODE_ALREADY_USED" });
}
