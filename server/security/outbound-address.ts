/**
 * Where the server may connect on a user's say-so (issue 45, finding 1): a push endpoint names
 * a host, and a host's DNS answer may be this machine or the private network behind it (the
 * cloud's metadata service at 169.254.169.254, a database on 10.0.0.5). `publicAddressLookup`
 * is the DNS look-up of the connection itself (the `lookup` of net.connect), so the address
 * checked is the address connected to: a name that answered a public address before and a
 * private one now (DNS rebinding) is refused now.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { ipv6Groups } from "./client-address.ts";

/** Loopback, private, link-local, unique-local and the other addresses no public service has. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network": 0.0.0.0 reaches this machine
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT, shared address space
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback (::1) and the old IPv4-compatible addresses
  ["64:ff9b:1::", 48], // local-use NAT64
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // the old site-local
  ["ff00::", 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}
// IPv4-mapped addresses (::ffff:10.0.0.1) are checked as IPv4 by BlockList itself.

/** Whether `address` (an IP address) is a public one; anything that is no address is not. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, "ipv4");
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  // NAT64's well-known prefix (64:ff9b::/96, RFC 6052) carries an IPv4 address: that one counts.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) {
    const [high = 0, low = 0] = groups.slice(6);
    return isPublicAddress([high >> 8, high & 0xff, low >> 8, low & 0xff].join("."));
  }
  return !NOT_PUBLIC.check(address, "ipv6");
}

export class NotPublicAddressError extends Error {
  readonly code = "ENOTPUBLIC";
  constructor(host: string, address: string) {
    super(`refused to connect to ${host}: ${address} is not a public address`);
    this.name = "NotPublicAddressError";
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect and http(s) agents that answers only public addresses: a name
 * with any other address among its answers is refused whole, before any connection.
 */
export function publicAddressLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((answer) => !isPublicAddress(answer.address));
    if (refused) return callback(new NotPublicAddressError(hostname, refused.address), []);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}
