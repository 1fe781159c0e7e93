import { describe, expect, it } from "vitest";
import { actionOriginHosts, atPublicOrigin } from "../../server/security/public-origin.ts";

describe("the request at the public origin", () => {
  it("moves a request that reached the server over http to PUBLIC_URL's origin, keeping path, query, method, headers and body", async () => {
    const hop = new Request("http://10.0.0.7:3000/contact?redirect=%2Fmy-gigs", {
      method: "POST",
      headers: { origin: "https://digsandgigs.example", "content-type": "application/x-www-form-urlencoded" },
      body: "name=Grace",
    });
    const request = atPublicOrigin(hop, "https://digsandgigs.example");
    expect(request.url).toBe("https://digsandgigs.example/contact?redirect=%2Fmy-gigs");
    expect(request.method).toBe("POST");
    expect(request.headers.get("origin")).toBe("https://digsandgigs.example");
    expect(await request.text()).toBe("name=Grace");
  });

  it("leaves a request already at the public origin as it is", () => {
    const request = new Request("https://digsandgigs.example/");
    expect(atPublicOrigin(request, "https://digsandgigs.example")).toBe(request);
  });
});

describe("React Router's allowed action origins", () => {
  it("are the public URL's host, port included", () => {
    expect(actionOriginHosts("https://digsandgigs.example", false)).toEqual(["digsandgigs.example"]);
    expect(actionOriginHosts("https://127.0.0.1:8443", false)).toEqual(["127.0.0.1:8443"]);
    // A public host that is no loopback name has no aliases, even in local mode.
    expect(actionOriginHosts("https://digsandgigs.example", true)).toEqual(["digsandgigs.example"]);
  });

  it("in local mode, add every loopback name on the public URL's port, as the origin check does", () => {
    expect(actionOriginHosts("http://localhost:3000", true).sort()).toEqual(["127.0.0.1:3000", "[::1]:3000", "localhost:3000"]);
  });
});
