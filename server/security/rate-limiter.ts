/**
 * Fixed-window attempt counting per key, in memory. Enough for one server process; a
 * deployment with several processes would move the counts to Redis or PostgreSQL.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts an attempt for `key`; false when the key has used up its window. */
  take(key: string): boolean {
    this.record(key);
    return !this.isOver(key, 0);
  }

  /** True when `key` already used up its window (counting nothing). */
  isLimited(key: string): boolean {
    return this.isOver(key, 1);
  }

  /** Counts an attempt for `key`, e.g. a failed one. */
  record(key: string): void {
    const now = this.now();
    if (this.windows.size > 10_000) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    else window.count += 1;
  }

  private isOver(key: string, extra: number): boolean {
    const window = this.windows.get(key);
    return window !== undefined && window.resetAt > this.now() && window.count + extra > this.max;
  }
}

const MINUTE = 60_000;

/**
 * The limits on top of Better Auth's per-client-address ones. The account limits are applied
 * in Better Auth's hooks (auth/endpoint-rules.ts), which every sign-in, sign-up and reset
 * passes through, the forms and the JSON API alike.
 */
export function createRateLimits() {
  return {
    /**
     * Failed sign-ins per e-mail address and client address: only failures count, and only
     * from that client, so neither the owner who knows the password nor someone guessing from
     * elsewhere is locked out by them.
     */
    signInFailures: new RateLimiter(10, 15 * MINUTE),
    signUpPerEmail: new RateLimiter(5, 60 * MINUTE),
    passwordResetPerEmail: new RateLimiter(3, 60 * MINUTE),
    /** E-mail confirmation links per address, the one sent at sign-up included. */
    confirmationEmailsPerAddress: new RateLimiter(5, 60 * MINUTE),
    /** Contact form messages per client IP address: each one is an e-mail to support. */
    contactPerIp: new RateLimiter(5, 10 * MINUTE),
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait a few minutes and try again.";
