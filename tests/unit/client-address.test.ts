import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "../../server/config.ts";
import { clientAddressResolver, limitedAddress } from "../../server/security/client-address.ts";

const PROXY = "10.0.0.5";

describe("clientAddressResolver", () => {
  it("without TRUST_PROXY takes the socket's address and ignores X-Forwarded-For", () => {
    const resolve = clientAddressResolver(parseTrustProxy(undefined));
    expect(resolve(PROXY, "203.0.113.9")).toBe(PROXY);
    expect(resolve("198.51.100.1", "1.2.3.4, 5.6.7.8")).toBe("198.51.100.1");
    expect(resolve(undefined, "1.2.3.4")).toBe("0.0.0.0");
  });

  it("with one hop takes the last X-Forwarded-For entry, the one the proxy wrote", () => {
    const resolve = clientAddressResolver(parseTrustProxy("1"));
    expect(resolve(PROXY, "203.0.113.9")).toBe("203.0.113.9");
    // Spoofed leading entries, written by the client, are ignored.
    expect(resolve(PROXY, "1.1.1.1, 2.2.2.2, 203.0.113.9")).toBe("203.0.113.9");
    // No header: the proxy itself is the nearest address there is.
    expect(resolve(PROXY, undefined)).toBe(PROXY);
  });

  it("with two hops skips the two nearest proxies", () => {
    const resolve = clientAddressResolver(parseTrustProxy("2"));
    expect(resolve(PROXY, "6.6.6.6, 203.0.113.9, 10.0.0.4")).toBe("203.0.113.9");
  });

  it("with a list of addresses and CIDRs skips only those, from the right", () => {
    const resolve = clientAddressResolver(parseTrustProxy("10.0.0.0/24, 192.0.2.7"));
    expect(resolve(PROXY, "6.6.6.6, 203.0.113.9, 192.0.2.7, 10.0.0.9")).toBe("203.0.113.9");
    // An untrusted address in the chain ends it: what stands left of it was written by someone untrusted.
    expect(resolve(PROXY, "203.0.113.9, 198.51.100.3, 10.0.0.9")).toBe("198.51.100.3");
    // A socket that is no trusted proxy is the client, whatever it says.
    expect(resolve("198.51.100.8", "203.0.113.9")).toBe("198.51.100.8");
    // IPv4-mapped socket addresses match their IPv4 range.
    expect(resolve("::ffff:10.0.0.5", "203.0.113.9")).toBe("203.0.113.9");
  });

  it("never takes an entry that is no address", () => {
    const resolve = clientAddressResolver(parseTrustProxy("1"));
    expect(resolve(PROXY, "not-an-address")).toBe(PROXY);
  });
});

describe("parseTrustProxy", () => {
  it("reads off, hop counts and address lists, and refuses what it cannot read", () => {
    expect(parseTrustProxy("")).toBe(false);
    expect(parseTrustProxy("false")).toBe(false);
    expect(parseTrustProxy("0")).toBe(false);
    expect(parseTrustProxy("2")).toEqual({ hops: 2 });
    expect(parseTrustProxy(" 10.0.0.0/8 ,loopback")).toEqual({ addresses: ["10.0.0.0/8", "loopback"] });
    expect(() => parseTrustProxy("true")).toThrow(/any client/);
    expect(() => parseTrustProxy("10.0.0.0/99")).toThrow();
    expect(() => parseTrustProxy("proxy.example")).toThrow();
  });
});

describe("limitedAddress (what per-client limits count by)", () => {
  it("is an IPv6 address's /64, however it is written", () => {
    const network = "2001:db8:85a3:8d3::/64";
    for (const address of ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:0DB8:85A3:08D3::1", "2001:db8:85a3:8d3::", "2001:db8:85a3:8d3:ffff:ffff:ffff:ffff", "2001:db8:85a3:8d3::1%eth0"]) {
      expect(limitedAddress(address)).toBe(network);
    }
    expect(limitedAddress("2001:db8:85a3:8d4::1")).toBe("2001:db8:85a3:8d4::/64");
    expect(limitedAddress("::1")).toBe("0:0:0:0::/64");
    expect(limitedAddress("fe80::1")).toBe("fe80:0:0:0::/64");
    // A dotted tail that is no mapped IPv4 address stays in its /64.
    expect(limitedAddress("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("is the IPv4 address of an IPv4-mapped IPv6 address, in any writing; an IPv4 address is itself", () => {
    for (const address of ["::ffff:192.0.2.1", "::FFFF:192.0.2.1", "0:0:0:0:0:ffff:192.0.2.1", "::ffff:c000:201", "192.0.2.1"]) {
      expect(limitedAddress(address)).toBe("192.0.2.1");
    }
  });

  it("leaves what is no address as it is", () => {
    expect(limitedAddress("unknown")).toBe("unknown");
  });
});
