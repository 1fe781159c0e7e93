/**
 * Behind a proxy that ends TLS (issue 30, finding 5): browsers use https://, the server is
 * reached over plain HTTP. The built server as a process with an https PUBLIC_URL behind a
 * real TLS-terminating proxy (tests/support/tls-site.ts: production mode on PostgreSQL when
 * TEST_DATABASE_URL is set, else local mode): every form is accepted from the site itself, as
 * a page post and as a data request; another origin, the site's http:// twin included, is
 * refused; cookies are Secure; redirects stay on the https site; nothing is logged as an error.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_SENT } from "../../core/contact-schema.ts";
import { CROSS_SITE_REFUSED } from "../../server/security/csrf.ts";
import { HttpUser, type HttpResponse } from "../support/http-user.ts";
import { startTlsSite, type TlsSite } from "../support/tls-site.ts";

let site: TlsSite;
const users: HttpUser[] = [];

beforeAll(async () => {
  site = await startTlsSite();
}, 150_000);
afterAll(async () => {
  for (const user of users) user.close();
  await site?.stop();
});

/** A browser on the https site, from its own loopback address (rate limits count per address). */
function browser(n: number): HttpUser {
  const user = new HttpUser(site.url, `127.0.3.${n}`);
  users.push(user);
  return user;
}

const contactForm = () => ({
  name: "Grace Hopper",
  email: "grace@example.com",
  subject: `Behind the proxy ${randomUUID()}`,
  message: "Do the forms work when the site is served over HTTPS?",
});

/** The Set-Cookie headers of an answer. */
const setCookies = (response: HttpResponse) => [response.headers["set-cookie"] ?? []].flat();

describe("the site at an https PUBLIC_URL behind a TLS-terminating proxy", () => {
  it("accepts the contact form from the site, as a page post and as a data request", async () => {
    const user = browser(1);
    const page = await user.post("/contact", contactForm());
    expect(page.status).toBe(200);
    expect(page.body).toContain(CONTACT_SENT);
    // What the browser's router sends once the page has hydrated.
    const data = await user.post("/contact.data", contactForm());
    expect(data.status).toBe(200);
    expect(data.body).toContain(CONTACT_SENT);
  });

  it("signs up and in through /auth's forms, with Secure cookies and redirects on the https site", async () => {
    const user = browser(2);
    const email = `tls-${randomUUID()}@example.com`;
    const signedUp = await user.post("/auth?redirect=/contact", {
      intent: "sign-up",
      fullName: "Tess Tls",
      email,
      password: "correct-horse-battery",
      userType: "consumer",
      ageConfirmed: "on",
    });
    expect(signedUp.status).toBe(302);
    // A path on this site, or an absolute URL on its https origin (HttpUser makes that a path).
    expect(signedUp.location).toBe("/contact");
    const cookies = setCookies(signedUp);
    expect(cookies.some((c) => c.startsWith("__Secure-dg.session_token="))).toBe(true);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);
    expect((await user.get("/contact")).body).toContain("Tess Tls");

    const other = browser(3);
    const signedIn = await other.post("/auth?redirect=/", { intent: "sign-in", email, password: "correct-horse-battery" });
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/");
    for (const cookie of setCookies(signedIn)) expect(cookie).toMatch(/;\s*Secure/i);
  });

  it("sends a signed-out visitor of a signed-in page to /auth on the https site", async () => {
    const away = await browser(4).get("/my-gigs");
    expect(away.status).toBe(302);
    expect(away.location).toMatch(/^\/auth\?redirect=/);
  });

  it("answers Better Auth's JSON API from the site, with Secure cookies", async () => {
    const user = browser(5);
    const signedUp = await user.postJson("/api/auth/sign-up/email", {
      name: "Jason Json",
      email: `tls-json-${randomUUID()}@example.com`,
      password: "correct-horse-battery",
      ageConfirmed: true,
    });
    expect(signedUp.status).toBe(200);
    for (const cookie of setCookies(signedUp)) expect(cookie).toMatch(/;\s*Secure/i);
  });

  it("refuses a form from any other origin, the site's own http:// address included", async () => {
    const port = new URL(site.url).port;
    for (const origin of [`http://127.0.0.1:${port}`, "https://evil.example", `https://127.0.0.1:${Number(port) + 1}`]) {
      const refused = await browser(6).send("POST", "/contact", new URLSearchParams(contactForm()).toString(), "application/x-www-form-urlencoded", { origin });
      expect(refused.status, origin).toBe(403);
      expect(refused.body).toBe(CROSS_SITE_REFUSED);
    }
  });

  it("logged no error on the way", () => {
    // pino's error level is 50: the framework's refusal of the forms was logged as one, with a stack.
    expect(site.process.output()).not.toMatch(/"level":(50|60)/);
  });
});
