/**
 * Per-network caps (issue 45): what free accounts from one network may hold together (live
 * holds of new accounts, live streams) and how many accounts it may make a day. A network is
 * the /24 of an IPv4 address and the /64 of an IPv6 address (`limitedAddress` already folds
 * IPv6 to its /64 and IPv4-mapped addresses to IPv4), so that one subscriber or one small
 * office counts once, while diggers behind one mobile carrier's shared addresses still fit.
 */
import { isIP } from "node:net";
import type { Config } from "../config.ts";
import { limitedAddress } from "./client-address.ts";

/** The network a client address counts in: `a.b.c.0/24`, `x:x:x:x::/64`, or the text as it is (no address). */
export function networkOf(address: string): string {
  const limited = limitedAddress(address);
  if (isIP(limited) !== 4) return limited;
  return `${limited.split(".").slice(0, 3).join(".")}.0/24`;
}

/** Loopback: 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
function isLoopback(address: string): boolean {
  const limited = limitedAddress(address);
  return limited.startsWith("127.") || limited === "::1" || limited === "0:0:0:0::/64";
}

/**
 * Whether the per-network caps and the daily sign-up cap count this client. Not for loopback
 * in local mode, where every request comes from the one machine (a developer, the browser
 * suites signing up hundreds of accounts); NETWORK_LIMITS_ON_LOOPBACK=true counts it there too
 * (the caps' own tests). Production counts every address.
 */
export function networkCapsApply(config: Pick<Config, "mode" | "networkLimitsOnLoopback">, address: string): boolean {
  return config.mode === "production" || config.networkLimitsOnLoopback || !isLoopback(address);
}
