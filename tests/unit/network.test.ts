import { describe, expect, it } from "vitest";
import { networkCapsApply, networkOf } from "#server/security/network.ts";

describe("networkOf", () => {
  it("counts an IPv4 address in its /24 and an IPv6 address in its /64", () => {
    expect(networkOf("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkOf("203.0.113.250")).toBe("203.0.113.0/24");
    expect(networkOf("203.0.114.7")).toBe("203.0.114.0/24");
    expect(networkOf("::ffff:198.51.100.9")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:db8:1:2:bbbb::9")).toBe(networkOf("2001:db8:1:2:aaaa::1"));
    expect(networkOf("2001:db8:1:3::1")).not.toBe(networkOf("2001:db8:1:2::1"));
  });
});

describe("networkCapsApply", () => {
  const local = { mode: "local" as const, networkLimitsOnLoopback: false };
  it("leaves loopback out in local mode only", () => {
    for (const address of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"]) {
      expect(networkCapsApply(local, address)).toBe(false);
      expect(networkCapsApply({ ...local, networkLimitsOnLoopback: true }, address)).toBe(true);
      expect(networkCapsApply({ mode: "production", networkLimitsOnLoopback: false }, address)).toBe(true);
    }
    expect(networkCapsApply(local, "203.0.113.7")).toBe(true);
    expect(networkCapsApply(local, "2001:db8::1")).toBe(true);
  });
});
