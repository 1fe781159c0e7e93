import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../server/security/rate-limiter.ts";

describe("RateLimiter", () => {
  it("allows max attempts per key in a window, then refuses until the window ends", () => {
    let now = 0;
    const limiter = new RateLimiter(3, 1000, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take("a"))).toEqual([true, true, true, false]);
    expect(limiter.take("b")).toBe(true);
    now = 1000;
    expect(limiter.take("a")).toBe(true);
  });

  it("can count only some attempts (failures) and check without counting", () => {
    let now = 0;
    const limiter = new RateLimiter(2, 1000, () => now);
    expect(limiter.isLimited("x")).toBe(false);
    limiter.record("x");
    expect(limiter.isLimited("x")).toBe(false);
    limiter.record("x");
    expect(limiter.isLimited("x")).toBe(true);
    expect(limiter.isLimited("x")).toBe(true);
    now = 5000;
    expect(limiter.isLimited("x")).toBe(false);
  });
});
