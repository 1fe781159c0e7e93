import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "../../server/security/csrf.ts";

const post = (origin: string | undefined, options: { publicUrl: string; loopbackAliases?: boolean }) =>
  crossSiteRefusal("POST", "/auth", { origin, secFetchSite: undefined }, { exemptPaths: [], ...options });

describe("origin check", () => {
  it("accepts the site's own origin and refuses others", () => {
    const site = { publicUrl: "https://digsandgigs.example" };
    expect(post("https://digsandgigs.example", site)).toBeNull();
    expect(post("https://evil.example", site)).not.toBeNull();
    expect(post("http://digsandgigs.example", site)).not.toBeNull();
  });

  it("in local mode, treats every loopback name on the same port as the site", () => {
    const local = { publicUrl: "http://localhost:3000", loopbackAliases: true };
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      expect(post(origin, local), origin).toBeNull();
    }
    for (const origin of ["http://127.0.0.1:3001", "https://127.0.0.1:3000", "http://192.168.1.5:3000", "http://localhost.evil.example:3000"]) {
      expect(post(origin, local), origin).not.toBeNull();
    }
  });

  it("never treats loopback names as aliases outside local mode", () => {
    expect(post("http://127.0.0.1:3000", { publicUrl: "http://localhost:3000" })).not.toBeNull();
  });

  it("without an Origin, refuses every browser that says the request came from elsewhere, a sibling subdomain included", () => {
    const site = { publicUrl: "https://digsandgigs.example", exemptPaths: [] };
    const fetched = (secFetchSite: string | undefined) => crossSiteRefusal("POST", "/auth", { origin: undefined, secFetchSite }, site);
    expect(fetched("cross-site")).not.toBeNull();
    expect(fetched("same-site")).not.toBeNull();
    expect(fetched("same-origin")).toBeNull();
    expect(fetched("none")).toBeNull();
    // Not a browser (curl): no victim's cookies to ride on.
    expect(fetched(undefined)).toBeNull();
  });
});
