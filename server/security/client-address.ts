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

/** Which proxies may name the client: none, the nearest `hops`, or those at these addresses/CIDRs. */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

/** What a client address is when the socket has none (in-process requests without one). */
const UNKNOWN_ADDRESS = "0.0.0.0";

/**
 * TRUST_PROXY's value: empty or "false" for off, a whole number of hops ("0" is off), or a
 * comma-separated list of addresses and CIDRs (proxy-addr's names loopback, linklocal and
 * uniquelocal too). Throws with a message for anything else.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? "";
  if (text === "" || text === "false") return false;
  if (/^\d+$/.test(text)) return Number(text) === 0 ? false : { hops: Number(text) };
  // "true" would trust every hop: the leftmost entry, which the client writes, would be believed.
  if (text === "true") throw new Error('"true" would believe any client; give the number of proxies or their addresses');
  const addresses = text.split(",").map((entry) => entry.trim()).filter(Boolean);
  proxyaddr.compile(addresses); // throws TypeError naming an entry it cannot read
  return { addresses };
}

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
