import { describe, expect, it } from "vitest";
import { clientAddressResolver, parseTrustProxy } from "../../server/security/client-address.ts";

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
