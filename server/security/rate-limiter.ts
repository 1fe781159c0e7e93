/**
 * Attempt counting per key, fixed windows, through rate-limiter-flexible: in PostgreSQL's
 * `rate_limits` table when the database is a PostgreSQL server, so that every server process
 * counts the same attempts; in this process's memory on the embedded PGlite (one process).
 * While PostgreSQL cannot be reached, each process counts in its own memory (the library's
 * insurance limiter) until it can again. docs/decisions/0014-proxies-and-shared-rate-limits.md.
 */
import type { Pool } from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { CODE_LIMITS } from "#core/phone-verification.ts";
import type { DatabaseDriver } from "../db/client.ts";

/** Made by our migrations (server/db/schema.ts `rateLimits`), in the column order the library writes. */
const RATE_LIMIT_TABLE = "rate_limits";

/** One limit: `max` attempts per `windowSeconds`, its keys kept apart from other limits' by `name`. */
function counter(pool: Pool | undefined, name: string, max: number, windowSeconds: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: name, points: max, duration: windowSeconds });
  if (!pool) return memory;
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true,
    keyPrefix: name,
    points: max,
    duration: windowSeconds,
    insuranceLimiter: memory,
  });
}

/** Counts one attempt: whether it is within the limit, and when the window ends. A store error passes on. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<{ allowed: boolean; msBeforeNext: number }> {
  try {
    return { allowed: true, msBeforeNext: (await limiter.consume(key)).msBeforeNext };
  } catch (error) {
    if (error instanceof RateLimiterRes) return { allowed: false, msBeforeNext: error.msBeforeNext };
    throw error;
  }
}

export class RateLimiter {
  private readonly counter: RateLimiterAbstract;

  /** `pool`: count in PostgreSQL, shared by every process; undefined: in this process's memory. */
  constructor(
    readonly name: string,
    readonly max: number,
    readonly windowMs: number,
    pool?: Pool,
  ) {
    this.counter = counter(pool, name, max, windowMs / 1000);
  }

  /** Counts an attempt for `key`; false when the key has used up its window. */
  async take(key: string): Promise<boolean> {
    return (await consume(this.counter, key)).allowed;
  }

  /**
   * Gives back an attempt `take` counted, once it turned out not to count (a sign-in whose
   * password was right). Taking first and giving back after is what makes a limit hold
   * against concurrent attempts: each one is counted before its outcome is known.
   */
  async refund(key: string): Promise<void> {
    await this.counter.reward(key, 1);
  }
}

/**
 * Better Auth's per-client-address limits (its `rateLimit.customRules`) as its custom storage,
 * counted where ours are: one counter per rule, made on first use.
 */
function betterAuthStorage(pool: Pool | undefined) {
  const counters = new Map<string, RateLimiterAbstract>();
  return {
    async consume(key: string, rule: { window: number; max: number }) {
      const name = `auth-${rule.window}s-${rule.max}`;
      let limiter = counters.get(name);
      if (!limiter) counters.set(name, (limiter = counter(pool, name, rule.max, rule.window)));
      const { allowed, msBeforeNext } = await consume(limiter, key);
      return { allowed, retryAfter: allowed ? null : Math.ceil(msBeforeNext / 1000) };
    },
  };
}

const MINUTE = 60_000;

/**
 * The limits on top of Better Auth's per-client-address ones. Those counted per client address
 * are keyed by `limitedAddress` (security/client-address.ts): an IPv6 client's /64. The account limits are applied
 * in Better Auth's hooks (auth/endpoint-rules.ts), which every sign-in, sign-up and reset
 * passes through, the forms and the JSON API alike.
 */
export function createRateLimits(driver: DatabaseDriver, settings: { smsDailyCapPerCountry: number }) {
  const pool = driver.kind === "postgres" ? driver.pool : undefined;
  const minutes = (limit: { max: number; minutes: number }) => [limit.max, limit.minutes * MINUTE] as const;
  return {
    /**
     * Phone codes sent (issue 49): each costs a text, and toll fraud asks for them by the
     * thousand. Per number (10 minutes and a day), account, client network (/24, /64) and
     * country; all are taken, and those taken are given back when another refuses (server/phones/).
     */
    phoneCodesPerNumber: new RateLimiter("phone-code-number", ...minutes(CODE_LIMITS.perNumber), pool),
    phoneCodesPerNumberDay: new RateLimiter("phone-code-number-day", ...minutes(CODE_LIMITS.perNumberDay), pool),
    phoneCodesPerAccount: new RateLimiter("phone-code-account", ...minutes(CODE_LIMITS.perAccount), pool),
    phoneCodesPerNetwork: new RateLimiter("phone-code-network", ...minutes(CODE_LIMITS.perNetwork), pool),
    phoneCodesPerCountry: new RateLimiter("phone-code-country", settings.smsDailyCapPerCountry, 24 * 60 * MINUTE, pool),
    /**
     * Failed sign-ins per e-mail address and client address: only failures count, and only
     * from that client, so neither the owner who knows the password nor someone guessing from
     * elsewhere is locked out by them. Each attempt is taken before its password is checked and
     * given back when it was right (auth/endpoint-rules.ts): concurrent guesses cannot pass the
     * limit before the first of them is counted (issue 30, finding 10).
     */
    signInFailures: new RateLimiter("sign-in-failures", 10, 15 * MINUTE, pool),
    signUpPerEmail: new RateLimiter("sign-up-email", 5, 60 * MINUTE, pool),
    /**
     * Sign-ups per client address (an IPv6 client's /64) and day, on top of Better Auth's 10 a
     * minute: each free account costs a confirmed mailbox to buy with, and no address makes
     * them by the hundred (issue 45). Not counted for loopback in local mode (security/network.ts).
     */
    signUpsPerAddressPerDay: new RateLimiter("sign-up-address-day", 20, 24 * 60 * MINUTE, pool),
    passwordResetPerEmail: new RateLimiter("password-reset-email", 3, 60 * MINUTE, pool),
    /** E-mail confirmation links per address, the one sent at sign-up included. */
    confirmationEmailsPerAddress: new RateLimiter("confirmation-email", 5, 60 * MINUTE, pool),
    /** Contact form messages per client address (an IPv6 client's /64): each one is an e-mail to support. */
    contactPerIp: new RateLimiter("contact-ip", 5, 10 * MINUTE, pool),
    /**
     * Gigs posted per account: each one can alert every matching digger (decision 0034). The
     * hour is taken first, so that attempts refused by it do not use up the day.
     */
    gigPostsPerHour: new RateLimiter("gig-posts-hour", 10, 60 * MINUTE, pool),
    gigPostsPerDay: new RateLimiter("gig-posts-day", 30, 24 * 60 * MINUTE, pool),
    // Messages sent per account (issue 32) are counted in the send's own transaction: conversations/message-limits.ts.
    /** "Answer in the product" e-mails per thread and party, for replies to a dead reply address (conversations/inbound/). */
    deadReplyNotices: new RateLimiter("dead-reply-notice", 1, 24 * 60 * MINUTE, pool),
    /** Better Auth's own per-client limits (auth/auth.ts `rateLimit`). */
    betterAuth: betterAuthStorage(pool),
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait a few minutes and try again.";
