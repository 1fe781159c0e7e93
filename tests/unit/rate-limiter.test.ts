import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "../../server/security/rate-limiter.ts";

// In this process's memory, as on PGlite; the PostgreSQL store is tested in tests/integration/proxy-rate-limits.test.ts.
beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

describe("RateLimiter", () => {
  it("allows max attempts per key in a window, then refuses until the window ends", async () => {
    const limiter = new RateLimiter("test", 3, 1000);
    const taken: boolean[] = [];
    for (let i = 0; i < 4; i++) taken.push(await limiter.take("a"));
    expect(taken).toEqual([true, true, true, false]);
    expect(await limiter.take("b")).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(await limiter.take("a")).toBe(true);
  });

  it("gives back an attempt that turned out not to count: only the others use up the window", async () => {
    const limiter = new RateLimiter("test", 2, 1000);
    for (let i = 0; i < 5; i++) {
      expect(await limiter.take("x")).toBe(true);
      await limiter.refund("x");
    }
    expect([await limiter.take("x"), await limiter.take("x"), await limiter.take("x")]).toEqual([true, true, false]);
    vi.advanceTimersByTime(1000);
    expect(await limiter.take("x")).toBe(true);
  });

  it("counts in this process's memory while PostgreSQL cannot be reached, limits still on", async () => {
    vi.useRealTimers();
    // Nothing listens on port 1: every query fails at once, as while the database is away.
    const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 1000 });
    try {
      const limiter = new RateLimiter("away", 2, 60_000, pool);
      const taken: boolean[] = [];
      for (let i = 0; i < 3; i++) taken.push(await limiter.take("k"));
      expect(taken).toEqual([true, true, false]);
      expect(await limiter.take("f")).toBe(true);
      await limiter.refund("f");
      expect([await limiter.take("f"), await limiter.take("f"), await limiter.take("f")]).toEqual([true, true, false]);
    } finally {
      await pool.end();
    }
  });
});
