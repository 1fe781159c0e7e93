/**
 * Web protections (issue 10): Content-Security-Policy with a per-request script nonce, the
 * other security headers, HSTS in production only, the CSRF origin check on every
 * state-changing request, no open redirect, no text from the address in a sign-in error,
 * uploads never served as HTML or script, and session fixation.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../server/db/schema.ts";
import { CROSS_SITE_REFUSED } from "../../server/security/csrf.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const directives = (policy: string | null) =>
  new Map((policy ?? "").split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];

describe("Content-Security-Policy", () => {
  it("allows scripts by a fresh nonce per request, and every script on the page carries it", async () => {
    for (const path of ["/", "/browse-gigs", "/auth", "/contact", "/no-such-page"]) {
      const response = await app.request(path);
      const policy = response.headers.get("content-security-policy");
      const nonce = nonceOf(policy);
      expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    }
    const [a, b] = await Promise.all([app.request("/"), app.request("/")]);
    expect(nonceOf(a.headers.get("content-security-policy"))).not.toBe(nonceOf(b.headers.get("content-security-policy")));
  });

  it("has the policy's directives: nothing framed, no plugins, forms and base only to this site", async () => {
    const policy = directives((await app.request("/")).headers.get("content-security-policy"));
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("script-src")?.slice(0, 1)).toEqual(["'self'"]);
    expect(policy.get("script-src")).toHaveLength(2);
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    // The test checkout lives on this site, and no sign-in provider is configured here.
    expect(policy.get("form-action")).toEqual(["'self'"]);
  });

  it("lets a form's redirect reach Stripe's checkout and the configured sign-in providers", async () => {
    const other = await createTestApp({
      STRIPE_SECRET_KEY: "sk_test_csp",
      STRIPE_WEBHOOK_SECRET: "whsec_csp",
      GOOGLE_CLIENT_ID: "google-id",
      GOOGLE_CLIENT_SECRET: "google-secret",
    });
    try {
      const policy = directives((await other.request("/auth")).headers.get("content-security-policy"));
      expect(policy.get("form-action")).toEqual(["'self'", "https://checkout.stripe.com", "https://accounts.google.com"]);
    } finally {
      await other.close();
    }
  });

  it("keeps an upload's own stricter policy", async () => {
    const key = `diggers/${randomUUID().replaceAll("-", "")}/a.png`;
    await app.services.storage.put(key, Buffer.from("not really a png"));
    const response = await app.request(`/uploads/${key}`);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'");
  });
});

describe("security headers", () => {
  it("sends nosniff, DENY framing and a strict referrer policy on pages, data and errors; no HSTS outside production", async () => {
    for (const path of ["/", "/browse-gigs.data", "/no-such-page", "/healthz"]) {
      const response = await app.request(path);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(directives(response.headers.get("content-security-policy")).get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("sends HSTS in production", async () => {
    const production = await createTestApp({
      NODE_ENV: "production",
      DATABASE_URL: "postgres://unused@127.0.0.1:5432/unused",
      BETTER_AUTH_SECRET: "a-production-secret-that-is-long-enough-0123456789",
      PUBLIC_URL: "https://digsandgigs.example",
      PAYMENTS_PROVIDER: "test",
      MAIL_TRANSPORT: "outbox",
    });
    try {
      const response = await production.request("/how-it-works");
      expect(response.status).toBe(200);
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await production.close();
    }
  });
});

describe("CSRF: the origin check on state-changing requests", () => {
  const signUpForm = (email: string) =>
    new URLSearchParams({ intent: "sign-up", fullName: "Eve Forger", email, password: TEST_PASSWORD, userType: "consumer", ageConfirmed: "on" }).toString();
  const postSignUp = (email: string, headers: Record<string, string>, path = "/auth") =>
    app.request(path, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: signUpForm(email),
    });
  const userExists = async (email: string) =>
    (await app.database.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length > 0;

  it("runs against the default public URL", () => expect(app.config.publicUrl).toBe("http://localhost:3000"));

  it.each<[string, Record<string, string>]>([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["an Origin of null (sandboxed frame, cross-site redirect)", { origin: "null" }],
    ["this host on another scheme", { origin: "https://localhost:3000" }],
    ["this host on another port", { origin: "http://localhost:3001" }],
    ["a look-alike host", { origin: "http://localhost:3000.evil.example" }],
    ["no Origin but Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ])("refuses a form post with %s, and changes nothing", async (_name, headers) => {
    const email = `csrf-${randomUUID()}@example.com`;
    const response = await postSignUp(email, headers);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(CROSS_SITE_REFUSED);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await userExists(email)).toBe(false);
  });

  it("refuses React Router's data requests, Better Auth's API and every other method the same way", async () => {
    const email = `csrf-${randomUUID()}@example.com`;
    expect((await postSignUp(email, { origin: "https://evil.example" }, "/auth.data")).status).toBe(403);
    const api = await app.request("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ email, password: TEST_PASSWORD, name: "Eve", userType: "consumer" }),
    });
    expect(api.status).toBe(403);
    expect(await userExists(email)).toBe(false);
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect((await app.request("/my-gigs", { method, headers: { origin: "https://evil.example" } })).status, method).toBe(403);
    }
    expect(app.logs).toContainEqual(expect.objectContaining({ msg: "cross-site request refused", path: "/api/auth/sign-up/email" }));
  });

  it("refuses a cross-site sign-out: the session stays", async () => {
    const user = await signUpAs(app, "consumer");
    const response = await user.client.send("/sign-out", { method: "POST", headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect((await user.client.get("/account")).status).toBe(200);
  });

  it("lets the site's own posts through, with Origin or with Sec-Fetch-Site: same-origin, and non-browser clients", async () => {
    for (const headers of [{ origin: app.config.publicUrl }, { "sec-fetch-site": "same-origin" }, {}] as Array<Record<string, string>>) {
      const email = `ok-${randomUUID()}@example.com`;
      const response = await postSignUp(email, headers);
      expect(response.status, JSON.stringify(headers)).toBe(302);
      expect(await userExists(email)).toBe(true);
    }
  });

  it("lets any Origin read pages (GET is never refused)", async () => {
    expect((await app.request("/browse-gigs", { headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });

  it("exempts Stripe's webhook, which proves itself by its signature instead", async () => {
    const response = await app.request("/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site", origin: "https://stripe.example" },
      body: "{}",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Invalid signature" });
  });
});

describe("redirects", () => {
  /** A redirect whose raw Location is a path on this site, which a browser resolves to this site. */
  const onSite = (response: Response) => {
    const to = response.headers.get("location") ?? "";
    const site = new URL(app.config.publicUrl).origin;
    return response.status === 302 && /^\/(?![/\\])/.test(to) && new URL(to, `${site}/auth`).origin === site;
  };

  it("never sends a signed-in user off the site, whatever the redirect parameter", async () => {
    const user = await signUpAs(app, "consumer");
    const targets = [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/%2F%2Fevil.example",
      "/\t/evil.example",
      "https:evil.example",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      " //evil.example",
      // Issue 16 finding 2: dot segments normalised away to the scheme-relative "//evil.com".
      "/.//evil.com/login",
      "/..//evil.com",
    ];
    const offSite: string[] = [];
    for (const target of targets) {
      const fresh = new SessionClient(app);
      const query = `?redirect=${encodeURIComponent(target)}`;
      const signIn = await fresh.post(`/auth${query}`, { intent: "sign-in", email: user.email, password: TEST_PASSWORD });
      const visit = await fresh.get(`/auth${query}`);
      for (const [how, response] of [["sign-in", signIn], ["signed-in visit", visit]] as const) {
        if (!onSite(response)) offSite.push(`${how} ${target} -> ${response.status} ${response.headers.get("location")}`);
      }
    }
    expect(offSite).toEqual([]);
  });
});

describe("sign-in errors in the address", () => {
  const INJECTED = "<script>alert(1)</script>Call 555-0100";

  it.each([
    [INJECTED, "Sign-in failed. Please try again.", "?error=unknown"],
    ["access_denied", "Sign-in was cancelled.", "?error=access_denied"],
  ])("shows our own message for ?error=%s, never the text itself", async (code, message, kept) => {
    const query = `?error=${encodeURIComponent(code)}`;
    for (const [path, landing] of [[`/auth${query}`, `/auth${kept}`], [`/auth.data${query}`, `/auth.data${kept}`]] as const) {
      const first = await app.request(path);
      const firstBody = await first.text();
      for (const text of ["Call 555-0100", "alert(1)", "Sign-in failed: "]) expect(firstBody, path).not.toContain(text);
      // A code we do not know leaves the address first, as "unknown" (issue 30, finding 12): the
      // page's forms repeat their address, so no text of the query may stay in it.
      if (landing !== path) expect(first.headers.get("location") ?? firstBody, path).toContain(`/auth${kept}`);
      const response = landing === path ? first : await app.request(landing);
      expect(response.status, landing).toBe(200);
      const body = landing === path ? firstBody : await response.text();
      expect(body, landing).toContain(message);
    }
  });
});

describe("uploads can never be served as HTML or script", () => {
  it("serves only JPEG, PNG and WebP keys, always as images with nosniff and default-src 'none'", async () => {
    for (const key of ["x.html", "x.htm", "x.svg", "x.js", "x.mjs", "x.xml", "x.txt", "x.jpg.html", "x", "../x.jpg", "X.JPG"]) {
      await expect(app.services.storage.put(key, Buffer.from("<script>alert(1)</script>")), key).rejects.toThrow();
      expect((await app.request(`/uploads/${key}`)).status, key).toBe(404);
    }
    const key = `diggers/${randomUUID().replaceAll("-", "")}/b.jpg`;
    await app.services.storage.put(key, Buffer.from("<html><script>alert(1)</script></html>"));
    const served = await app.request(`/uploads/${key}`);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'");
  });
});

describe("sessions", () => {
  const sessionCookie = (client: SessionClient) => [...client.cookies].find(([name]) => name.includes("session_token"));

  it("issues a new session token at sign-in: a planted one is never adopted", async () => {
    const user = await signUpAs(app, "consumer");
    const client = new SessionClient(app);
    const name = sessionCookie(user.client)![0];
    client.cookies.set(name, "attacker-chosen-token.c2lnbmF0dXJl");
    const response = await client.post("/auth", { intent: "sign-in", email: user.email, password: TEST_PASSWORD });
    expect(response.status).toBe(302);
    const [, issued] = sessionCookie(client)!;
    expect(issued).not.toContain("attacker-chosen-token");
    expect((await client.get("/account")).status).toBe(200);
    const planted = await app.request("/account", { headers: { cookie: `${name}=attacker-chosen-token.c2lnbmF0dXJl` }, redirect: "manual" });
    expect(planted.status).toBe(302);
  });

  it("replaces the session when another person signs in on the same browser", async () => {
    const [first, second] = await Promise.all([signUpAs(app, "consumer", "First Person"), signUpAs(app, "consumer", "Second Person")]);
    const shared = new SessionClient(app);
    await shared.post("/auth", { intent: "sign-in", email: first.email, password: TEST_PASSWORD });
    const firstToken = sessionCookie(shared)![1];
    await shared.post("/auth", { intent: "sign-in", email: second.email, password: TEST_PASSWORD });
    const secondToken = sessionCookie(shared)![1];
    expect(secondToken).not.toBe(firstToken);
    const cookie = `${sessionCookie(shared)![0]}=${firstToken}`;
    const page = await (await app.request("/account", { headers: { cookie }, redirect: "manual" })).text();
    expect(page).not.toContain(second.email);
    expect(await (await shared.get("/account")).text()).toContain(second.email);
  });
});
