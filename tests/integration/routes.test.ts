import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { signedInPages, specPages } from "../support/pages.ts";
import { dataRedirect, location } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("pages", () => {
  it.each(specPages)("%s renders inside the shared layout", async (path, heading) => {
    const response = await app.request(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain(heading.replaceAll("&", "&amp;"));
    expect(html).toContain('aria-label="Main"');
    expect(html).toContain('aria-label="Footer"');
  });

  it.each(signedInPages)("%s sends a visitor to sign in first (%s)", async (path, redirect) => {
    const response = await app.request(path, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(location(response)).toBe(redirect);
  });

  // A client navigation asks for /page.data?_routes=…: loaders and actions get that request as it
  // came (future.v8_passThroughRequests), and the way back after sign-in is the page's address.
  it.each(signedInPages)("%s sends a visitor to sign in first on a client navigation too (%s)", async (path, redirect) => {
    const response = await app.request(`${path}.data?_routes=root,routes${path}`);
    expect(await dataRedirect(response)).toBe(redirect);
  });

  it("sends a visitor back to the page's own address and query from a client navigation and a form sent with JavaScript", async () => {
    const navigation = await app.request("/verify-phone.data?next=%2Fmy-gigs&_routes=root,routes/verify-phone");
    expect(await dataRedirect(navigation)).toBe(`/auth?redirect=${encodeURIComponent("/verify-phone?next=%2Fmy-gigs")}`);
    const form = await app.request("/account.data", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.config.publicUrl },
      body: new URLSearchParams({ intent: "change-password", currentPassword: "x", newPassword: "y" }).toString(),
    });
    expect(await dataRedirect(form)).toBe("/auth?redirect=%2Faccount");
  });

  it("gives each page its own title", async () => {
    const html = await (await app.request("/browse-gigs")).text();
    expect(html).toContain("<title>Browse Gigs | Digs &amp; Gigs</title>");
  });
});

describe("404", () => {
  it("shows 'Oops! Page not found' with a Return to Home link, and logs the missing path", async () => {
    const response = await app.request("/no/such/page?x=1");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
    expect(app.logs).toContainEqual(expect.objectContaining({ path: "/no/such/page", msg: "page not found" }));
  });

  it("logs the page's path, not the data request's, on a client navigation", async () => {
    const response = await app.request("/no/such/other-page.data?x=1&_routes=root,routes/not-found");
    expect(response.status).toBe(404);
    expect(app.logs).toContainEqual(expect.objectContaining({ path: "/no/such/other-page", msg: "page not found" }));
    expect(app.logs).not.toContainEqual(expect.objectContaining({ path: "/no/such/other-page.data", msg: "page not found" }));
  });
});

describe("service endpoints", () => {
  it("/healthz says the process is up; /readyz that it can serve (more in health.test.ts)", async () => {
    const response = await app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect((await app.request("/readyz")).status).toBe(200);
  });

  it("every response carries a request id and safe headers, and each request is logged with it", async () => {
    const response = await app.request("/how-it-works");
    const id = response.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(app.logs).toContainEqual(expect.objectContaining({ reqId: id, path: "/how-it-works", status: 200 }));
  });

  it("compresses pages and scripts for clients that accept it", async () => {
    const page = await app.request("/browse-gigs", { headers: { "accept-encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const html = await new Response(page.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    expect(html).toContain("Browse Gigs");
    const script = /\/assets\/[^"]+\.js/.exec(html)![0];
    const asset = await app.request(script, { headers: { "accept-encoding": "gzip" } });
    expect(asset.headers.get("content-encoding")).toBe("gzip");
    expect((await app.request("/browse-gigs")).headers.get("content-encoding")).toBeNull();
  });

  it("serves built assets with long-lived caching", async () => {
    const html = await (await app.request("/")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const response = await app.request(asset!);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("immutable");
  });
});
