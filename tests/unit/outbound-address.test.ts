import { describe, expect, it } from "vitest";
import { isPublicAddress, publicAddressLookup } from "../../server/security/outbound-address.ts";

describe("isPublicAddress (server/security/outbound-address.ts)", () => {
  it.each([
    "127.0.0.1", "127.255.255.254", "0.0.0.0", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
    "169.254.169.254", "100.64.0.1", "192.0.0.170", "198.18.0.1", "224.0.0.1", "255.255.255.255",
    "::", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
    "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "fec0::1", "ff02::1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::1",
    "not an address", "localhost", "",
  ])("%s is not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "142.250.74.138", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2607:f8b0:4004:c07::5f", "2a00:1450:4001:80b::200a", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "%s is public",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("publicAddressLookup", () => {
  const lookup = (hostname: string, all: boolean) =>
    new Promise<unknown>((resolve, reject) =>
      publicAddressLookup(hostname, { all }, (error, address) => (error ? reject(error) : resolve(address))),
    );

  it("refuses a name that resolves to this machine, asked for one address or all", async () => {
    await expect(lookup("localhost", false)).rejects.toThrow(/refused to connect to localhost: .* is not a public address/);
    await expect(lookup("localhost", true)).rejects.toMatchObject({ code: "ENOTPUBLIC" });
  });

  it("passes on the resolver's own errors", async () => {
    await expect(lookup("nowhere.invalid", false)).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});
