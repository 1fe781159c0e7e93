/**
 * The client's address, the one every per-client limit, log line and Better Auth counts by.
 * Without TRUST_PROXY it is the socket's address, whatever X-Forwarded-For says; behind
 * proxies it is read from X-Forwarded-For as the trusted proxies wrote it (proxy-addr, the
 * package Express uses): from the right, skipping the trusted hops, never a leading entry a
 * client could have written itself. docs/decisions/0014-proxies-and-shared-rate-limits.md.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import proxyaddr from "proxy-addr";
import type { TrustProxy } from "../config.ts";

/** What a client address is when the socket has none (in-process requests without one). */
const UNKNOWN_ADDRESS = "0.0.0.0";

/** A function from a request's socket address and X-Forwarded-For header to its client's address. */
export function clientAddressResolver(trustProxy: TrustProxy) {
  const trust =
    trustProxy === false
      ? undefined
      : "hops" in trustProxy
        ? (_address: string, hop: number) => hop < trustProxy.hops
        : proxyaddr.compile(trustProxy.addresses);
  return (socketAddress: string | undefined, forwardedFor: string | undefined): string => {
    const socket = socketAddress ?? UNKNOWN_ADDRESS;
    if (!trust) return socket;
    // proxy-addr reads only these two fields of a request.
    const request = { socket: { remoteAddress: socket }, headers: { "x-forwarded-for": forwardedFor } };
    const chain = proxyaddr.all(request as unknown as IncomingMessage, trust);
    // A hop that is no address (garbage a trusted proxy passed on) names nobody: the one before it does.
    return chain.findLast((address) => isIP(address) !== 0) ?? socket;
  };
}

/**
 * What a per-client limit counts by (issue 30, finding 9): an IPv6 client's /64, like Better
 * Auth's own limiter, since a single subscriber's network is a /64 and a host may take any of
 * its addresses at will; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its IPv4 address;
 * an IPv4 address is itself. Anything else (no address) is counted as it is.
 */
export function limitedAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
export function ipv6Groups(address: string): number[] {
  // A zone (`fe80::1%eth0`) names the link, not the address.
  let text = address.toLowerCase().split("%")[0] ?? "";
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}
