/**
 * Confirming an e-mail address by link (Better Auth's e-mail verification). A client's gigs
 * are published only once their address is confirmed (design.md section 7; docs/decisions/
 * 0012-publish-after-e-mail-confirmation.md); signing in never depends on it.
 *
 * The link opens /verify-email, a page whose button confirms: mail scanners open links in
 * e-mail, and a confirmation they could make would publish gigs under an address whose owner
 * never saw them.
 */
import type { BetterAuthOptions } from "better-auth";
import { APIError } from "better-auth/api";
import type { Database } from "../db/client.ts";
import type { Emit } from "../events/emit.ts";
import type { Logger } from "../logger.ts";
import { TOO_MANY_ATTEMPTS, type RateLimits } from "../security/rate-limiter.ts";

/** How long a confirmation link works, in seconds. */
const VERIFICATION_EXPIRES_IN = 24 * 60 * 60;
export function emailVerificationOptions({
  db,
  emit,
  rateLimits,
  logger,
}: {
  db: Database;
  emit: Emit;
  rateLimits: RateLimits;
  logger: Logger;
}): BetterAuthOptions["emailVerification"] {
  return {
    // The client's gigs were published by the confirmation (a trigger, migration 0009): their lead
    // alerts go now (docs/decisions/0023-lead-alerts.md). After Better Auth's own write, not in it:
    // the gigs are read and their jobs enqueued together, in the event's one transaction.
    afterEmailVerification: async (user) => {
      // The confirmation stands whatever happens here: a failure costs instant alerts (the digest still lists the gigs).
      await emit(db, { kind: "account.email-confirmed", userId: user.id }).catch((error: unknown) =>
        logger.error({ err: error, userId: user.id }, "lead alerts not enqueued after an e-mail confirmation"),
      );
    },
    sendOnSignUp: true,
    expiresIn: VERIFICATION_EXPIRES_IN,
    // Off: a link that signed people in would pass by their password and two-factor authentication.
    autoSignInAfterVerification: false,
    sendVerificationEmail: async ({ user, token }) => {
      // Better Auth limits requests per client address; this limits them per recipient, so that
      // nobody can flood an inbox from many addresses.
      if (!(await rateLimits.confirmationEmailsPerAddress.take(user.email.toLowerCase()))) throw new APIError("TOO_MANY_REQUESTS", { message: TOO_MANY_ATTEMPTS });
      const client = (user as { userType?: unknown }).userType !== "digger";
      await emit(db, { kind: "account.confirm-email", userId: user.id, name: user.name, address: user.email, token, client });
    },
  };
}
