/**
 * What a browser or a cache may keep (issue 45, finding 6; server/security/private-responses.ts):
 * every answer that depends on the session says `Cache-Control: private, no-store` (pages,
 * their data, resource routes, the live stream, Better Auth's answers), the signed-out views
 * of public pages, the built assets and the public files keep their caching (the page cache
 * too), and a sign-out, however reached, answers `Clear-Site-Data: "cache"`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_PATH } from "#core/live-events.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { location, SessionClient } from "../support/session-client.ts";
import { openSecurityWorld, type SecurityWorld, WORLD_SETUP_MS } from "../security/fixture.ts";
import type { TestApp } from "../support/app.ts";
import type { World } from "../security/world.ts";

const PRIVATE = "private, no-store";

let security: SecurityWorld;
let app: TestApp;
let world: World;
// With the page cache on, as in production: it must keep serving signed-out views.
beforeAll(async () => ({ app, world } = security = await openSecurityWorld({ env: { PAGE_CACHE_SECONDS: "30" } })), WORLD_SETUP_MS);
afterAll(() => security.close());

/** A new session of the owning digger (the thread's party), by Better Auth's JSON sign-in. */
async function signInOwningDigger(): Promise<{ client: SessionClient; answer: Response }> {
  const client = new SessionClient(app);
  const answer = await client.send("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.config.publicUrl },
    body: JSON.stringify({ email: world.users.owningDigger.email, password: TEST_PASSWORD }),
  });
  expect(answer.status).toBe(200);
  return { client, answer };
}

describe("Cache-Control", () => {
  it("is private, no-store on every answer that depends on the session: a thread, its data, /account, resource routes, the live stream, Better Auth's", async () => {
    const { client, answer } = await signInOwningDigger();
    expect(answer.headers.get("cache-control")).toBe(PRIVATE);
    const thread = `/messages/${world.thread.id}`;
    const paths = [
      thread,
      `${thread}.data`,
      "/account",
      "/account.data",
      "/messages",
      "/messages.data",
      // Public pages too, signed in: the top bar names the user.
      "/",
      "/_.data",
      "/browse-gigs",
      `/gig/${world.gig.id}`,
      // Resource routes: an attachment, the data download.
      `${thread}/attachments/${world.attachment.id}`,
      "/account/data",
      "/api/auth/get-session",
      "/api/auth/list-sessions",
      // A page the user may not see answers from the session too.
      "/ops/users",
      "/no-such-page",
    ];
    for (const path of paths) {
      const response = await client.get(path);
      expect(response.status, path).toBeLessThan(500);
      expect(response.headers.get("cache-control"), path).toBe(PRIVATE);
      await response.body?.cancel();
    }
    expect(await (await client.get(thread)).text()).toContain(world.message.body);
    // The live stream keeps no-transform (never compressed or buffered on the way).
    const live = await client.send(LIVE_PATH, { method: "HEAD" });
    expect(live.status).toBe(200);
    expect(live.headers.get("cache-control")).toBe(`${PRIVATE}, no-transform`);
  });

  it("is private on answers to a session cookie that is no longer good, and on answers that set a cookie", async () => {
    const stale = new SessionClient(app);
    stale.cookies.set("dg.session_token", "not-a-real-token.c2lnbmF0dXJl");
    const page = await stale.get(`/messages/${world.thread.id}`);
    expect(location(page)).toMatch(/^\/auth\?/);
    expect(page.headers.get("cache-control")).toBe(PRIVATE);
    // Signing in through our own form: the redirect that sets the session cookie.
    const form = await new SessionClient(app).post("/auth", { intent: "sign-in", email: world.users.owningDigger.email, password: TEST_PASSWORD });
    expect(form.headers.getSetCookie().length).toBeGreaterThan(0);
    expect(form.headers.get("cache-control")).toBe(PRIVATE);
  });

  it("stays as it was where no session is read: signed-out public pages (and the page cache), built assets, public files", async () => {
    const visitor = new SessionClient(app);
    for (const path of ["/", "/_.data", "/browse-gigs", "/browse-gigs.data", `/gig/${world.gig.id}`, "/how-it-works"]) {
      const response = await visitor.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control") ?? "", path).not.toMatch(/private|no-store/);
      await response.body?.cancel();
    }
    // The page cache serves the signed-out view again; never the signed-in one.
    const again = await visitor.get("/browse-gigs");
    expect(again.headers.get("x-page-cache")).toBe("hit");
    const { client } = await signInOwningDigger();
    const signedIn = await client.get("/browse-gigs");
    expect(signedIn.headers.get("x-page-cache")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe(PRIVATE);
    // Files no session changes keep their own caching, a session cookie sent or not.
    expect((await client.get("/robots.txt")).headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await client.get("/sitemap.xml")).headers.get("cache-control")).toBe("public, max-age=3600");
    const html = await (await visitor.get("/how-it-works")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0];
    expect((await client.get(asset)).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});

describe("Clear-Site-Data on sign-out", () => {
  it("answers our Sign Out form, Better Auth's sign-out and a deleted account with Clear-Site-Data: \"cache\"; the thread then asks for sign-in", async () => {
    const { client } = await signInOwningDigger();
    const thread = `/messages/${world.thread.id}`;
    expect((await client.get(thread)).status).toBe(200);
    const viaForm = await client.post("/sign-out", {});
    expect(location(viaForm)).toBe("/");
    expect(viaForm.headers.get("clear-site-data")).toBe('"cache"');
    expect(viaForm.headers.get("cache-control")).toBe(PRIVATE);
    const after = await client.get(thread);
    expect(location(after)).toMatch(/^\/auth\?/);
    expect(after.headers.get("cache-control")).toBe(PRIVATE);

    const viaApi = await (await signInOwningDigger()).client.send("/api/auth/sign-out", { method: "POST", headers: { origin: app.config.publicUrl } });
    expect(viaApi.status).toBe(200);
    expect(viaApi.headers.get("clear-site-data")).toBe('"cache"');

    const leaving = await signUpAs(app, "consumer", "Leaving Person");
    const deleted = await leaving.client.post("/account", { intent: "delete-account", confirmEmail: leaving.email });
    expect(location(deleted)).toBe("/");
    expect(deleted.headers.get("clear-site-data")).toBe('"cache"');
  });

  it("is not sent by anything else: a signed-in page, a form, a sign-in", async () => {
    const { client, answer } = await signInOwningDigger();
    expect(answer.headers.get("clear-site-data")).toBeNull();
    expect((await client.get("/account")).headers.get("clear-site-data")).toBeNull();
    const sent = await client.post(`/messages/${world.thread.id}`, { intent: "send", body: "Still here." });
    expect(sent.status).toBeLessThan(400);
    expect(sent.headers.get("clear-site-data")).toBeNull();
  });
});
