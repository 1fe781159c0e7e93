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
import { enqueueAlertsOfClient } from "../alerts/fan-out.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Logger } from "../logger.ts";
import type { Mailer } from "../mail/mailer.ts";
import { confirmationEmail } from "../mail/templates/account-emails.ts";
import { TOO_MANY_ATTEMPTS, type RateLimits } from "../security/rate-limiter.ts";

export { VERIFICATION_SUBJECT } from "../mail/templates/account-emails.ts";
/** How long a confirmation link works, in seconds. */
export const VERIFICATION_EXPIRES_IN = 24 * 60 * 60;
export function emailVerificationOptions({
  config,
  db,
  mailer,
  rateLimits,
  jobs,
  logger,
}: {
  config: Config;
  db: Database;
  mailer: Mailer;
  rateLimits: RateLimits;
  jobs: JobQueue;
  logger: Logger;
}): BetterAuthOptions["emailVerification"] {
  return {
    // The client's gigs were published by the confirmation (a trigger, migration 0009): their lead
    // alerts go now (docs/decisions/0023-lead-alerts.md). After Better Auth's own write, not in it.
    afterEmailVerification: async (user) => {
      // The confirmation stands whatever happens here: a failure costs instant alerts (the digest still lists the gigs).
      await enqueueAlertsOfClient(db, jobs, user.id).catch((error: unknown) =>
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
      const link = `${config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
      const consumer = (user as { userType?: unknown }).userType !== "digger";
      await mailer.send({ ...confirmationEmail({ name: user.name, link, consumer }), to: user.email, userId: user.id, kind: "transactional" });
    },
  };
}
