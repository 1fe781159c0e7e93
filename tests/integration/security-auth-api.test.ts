/**
 * Issue 16: Better Auth's own JSON endpoints (`/api/auth/*`) follow every rule our forms
 * follow. Each block is one finding of the attack, reproduced the way the attacker did it:
 * JSON straight to the library's endpoint, from a browser-like client with the site's Origin.
 */
import { randomUUID } from "node:crypto";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails, users } from "../../server/db/schema.ts";
import { SIGN_UP_CHECK_INBOX } from "../../server/sign-in/sign-up.ts";
import type { TestApp } from "../support/app.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { location, SessionClient } from "../support/session-client.ts";
import { sessionTokenOf } from "../security/auth-endpoints.ts";
import { openSecurityApp, type OidcProvider, type SecurityApp } from "../security/fixture.ts";

let security: SecurityApp<true>;
let app: TestApp;
let oidc: OidcProvider;
beforeAll(async () => ({ app, oidc } = security = await openSecurityApp({ signInProvider: true })));
afterAll(() => security.close());

const uniqueEmail = () => `api-${randomUUID()}@example.com`;

function postJson(client: SessionClient, path: string, body: unknown) {
  return client.send(`/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.config.publicUrl },
    body: JSON.stringify(body),
  });
}
const messageOf = async (response: Response) => ((await response.json()) as { message?: string }).message;
const userByEmail = async (email: string) => (await app.database.db.select().from(users).where(eq(users.email, email)))[0];
const mailsTo = async (address: string, subject?: string) =>
  (
    await app.database.db
      .select({ n: count() })
      .from(emails)
      .where(subject ? and(eq(emails.toAddress, address), eq(emails.subject, subject)) : eq(emails.toAddress, address))
  )[0]!.n;
const sessionCookieSet = (response: Response) => response.headers.getSetCookie().some((c) => c.startsWith("dg.session_token="));

describe("finding 1: the account type cannot be changed after sign-up", () => {
  it.each([
    ["consumer", "digger"],
    ["digger", "consumer"],
    ["consumer", "admin"],
  ] as const)("a %s sending userType %s to update-user gets 400 and keeps the type", async (from, to) => {
    const user = await signUpAs(app, from);
    const response = await postJson(user.client, "/update-user", { userType: to });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe("The account type cannot be changed");
    // Mixed with a field that may change: nothing of the request is applied.
    const mixed = await postJson(user.client, "/update-user", { name: "Renamed Person", userType: to });
    expect(mixed.status).toBe(400);
    expect(await userByEmail(user.email)).toMatchObject({ userType: from, name: user.fullName });
  });

  it("is refused by the database too, whatever path a change comes by", async () => {
    const user = await signUpAs(app, "consumer");
    await expect(app.database.db.update(users).set({ userType: "digger" }).where(eq(users.id, user.id))).rejects.toThrow();
    expect((await userByEmail(user.email))?.userType).toBe("consumer");
  });
});

describe("finding 4: per-address limits hold on the JSON API, and cannot lock the owner out", () => {
  it("ten failed sign-ins from one client stop that client, not the owner signing in from elsewhere", async () => {
    const user = await signUpAs(app, "consumer");
    const attacker = new SessionClient(app);
    for (let i = 0; i < 10; i++) {
      expect((await postJson(attacker, "/sign-in/email", { email: user.email, password: `wrong-${i}` })).status).toBe(401);
    }
    const blocked = await postJson(attacker, "/sign-in/email", { email: user.email, password: TEST_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(sessionCookieSet(blocked)).toBe(false);
    // The form shares the count: it is the same endpoint underneath.
    const form = await attacker.post("/auth", { intent: "sign-in", email: user.email, password: TEST_PASSWORD });
    expect(form.status).toBe(429);

    const owner = new SessionClient(app);
    const signedIn = await postJson(owner, "/sign-in/email", { email: user.email, password: TEST_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(sessionCookieSet(signedIn)).toBe(true);
  });

  it("password reset e-mails to one address are limited across client addresses", async () => {
    const user = await signUpAs(app, "consumer");
    const subject = "Reset your Digs & Gigs password";
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const client = new SessionClient(app); // a new client address each time
      const response = await postJson(client, "/request-password-reset", { email: user.email, redirectTo: "/reset-password" });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await mailsTo(user.email, subject)).toBe(3);
  });
});

describe("issue 30: list-sessions shows no session's token", () => {
  it("lists the account's sessions without the tokens their cookies hold", async () => {
    const user = await signUpAs(app, "consumer");
    const laptop = new SessionClient(app);
    expect((await postJson(laptop, "/sign-in/email", { email: user.email, password: TEST_PASSWORD })).status).toBe(200);
    const response = await user.client.get("/api/auth/list-sessions");
    expect(response.status).toBe(200);
    const body = await response.text();
    const sessions = JSON.parse(body) as Array<Record<string, unknown>>;
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      expect(session).not.toHaveProperty("token");
      expect(session).toMatchObject({ userId: user.id });
    }
    for (const token of [sessionTokenOf(user.client), sessionTokenOf(laptop)]) expect(body).not.toContain(token);
  });
});

describe("finding 6: the 18-or-older confirmation is required on every sign-up path", () => {
  it.each([
    ["missing", undefined],
    ["false", false],
    ["a string", "on"],
  ])("JSON sign-up with ageConfirmed %s is refused and makes no account", async (_name, ageConfirmed) => {
    const email = uniqueEmail();
    const response = await postJson(new SessionClient(app), "/sign-up/email", {
      name: "Young Person",
      email,
      password: TEST_PASSWORD,
      userType: "consumer",
      ...(ageConfirmed === undefined ? {} : { ageConfirmed }),
    });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe("Please confirm you are 18 or older");
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("JSON sign-up with ageConfirmed true makes the account", async () => {
    const email = uniqueEmail();
    const response = await postJson(new SessionClient(app), "/sign-up/email", {
      name: "Adult Person",
      email,
      password: TEST_PASSWORD,
      ageConfirmed: true,
    });
    expect(response.status).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ name: "Adult Person", userType: "consumer" });
  });

  async function googleSignIn(identity: { sub: string; email: string; name: string }, form: Record<string, string>) {
    oidc.nextIdentity(identity);
    const client = new SessionClient(app);
    const start = await client.post("/auth?redirect=/how-it-works", { intent: "social", provider: "google", userType: "consumer", ...form });
    const back = await fetch(location(start)!, { redirect: "manual" });
    const done = await client.get(back.headers.get("location")!);
    return { client, done };
  }

  it("a social sign-up without the Sign Up tab's box makes no account and says why", async () => {
    const identity = { sub: randomUUID(), email: uniqueEmail(), name: "Sol Social" };
    const { client, done } = await googleSignIn(identity, {});
    expect(done.status).toBe(302);
    const to = location(done)!;
    expect(to).toMatch(/^\/auth\?/);
    expect(new URL(to, "http://x").searchParams.get("error")).toBe("AGE_CONFIRMATION_REQUIRED");
    expect(await userByEmail(identity.email)).toBeUndefined();
    // /auth first drops Better Auth's error_description from the address (issue 30, finding 12).
    const cleaned = await client.get(to);
    expect(cleaned.status).toBe(302);
    const page = location(cleaned)!;
    expect(new URL(page, "http://x").searchParams.get("error")).toBe("AGE_CONFIRMATION_REQUIRED");
    expect(page).not.toContain("error_description");
    expect(await (await client.get(page)).text()).toContain("18 or older");

    // With the box ticked the same person gets an account; afterwards the box is not needed to sign in.
    await googleSignIn(identity, { ageConfirmed: "on" });
    expect(await userByEmail(identity.email)).toMatchObject({ name: "Sol Social" });
    const again = await googleSignIn(identity, {});
    expect(location(again.done)).toBe("/how-it-works");
  });
});

describe("finding 7: the sign-up name rules hold on update-user", () => {
  it.each([
    ["empty", "", "Full name is required"],
    ["only spaces and line breaks", " \r\n\t ", "Full name is required"],
    ["150 characters", "N".repeat(150), "Full name must be at most 100 characters"],
    ["250 characters", "N".repeat(250), "Full name must be at most 100 characters"],
  ])("a %s name is refused with 400 and the form's message", async (_name, name, message) => {
    const user = await signUpAs(app, "consumer");
    const response = await postJson(user.client, "/update-user", { name });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(message);
    expect((await userByEmail(user.email))?.name).toBe(user.fullName);
  });

  it("line breaks and direction overrides never reach the stored name, on update and on sign-up", async () => {
    const user = await signUpAs(app, "consumer");
    const response = await postJson(user.client, "/update-user", { name: "Ann\r\nLee\u202Egnp.exe\u2066" });
    expect(response.status).toBe(200);
    expect((await userByEmail(user.email))?.name).toBe("Ann Lee gnp.exe");

    const email = uniqueEmail();
    await postJson(new SessionClient(app), "/sign-up/email", { name: "Bo\u202E\nBo", email, password: TEST_PASSWORD, ageConfirmed: true });
    expect((await userByEmail(email))?.name).toBe("Bo Bo");
  });
});

describe("finding 8: a TOTP code completes one sign-in", () => {
  const step = () => Math.floor(Date.now() / 30_000);
  const codeAt = (secret: string, at: number) => createOTP(base32.decode(secret)).hotp(at);

  async function userWithTwoFactor() {
    const user = await signUpAs(app, "consumer");
    const enrol = await user.client.post("/account", { intent: "enable-two-factor", password: TEST_PASSWORD });
    const secret = /secret=([A-Z2-7]+)/.exec(await enrol.text())?.[1];
    if (!secret) throw new Error("no TOTP secret on the enrolment page");
    const confirm = await user.client.post("/account", { intent: "confirm-two-factor", code: await codeAt(secret, step()) });
    expect(location(confirm)).toBe("/account");
    return { ...user, secret };
  }
  async function passwordStep(email: string) {
    const device = new SessionClient(app);
    const response = await postJson(device, "/sign-in/email", { email, password: TEST_PASSWORD });
    expect(((await response.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    return device;
  }

  it("the same code, or an older one, does not complete a second sign-in", async () => {
    const user = await userWithTwoFactor();
    const code = await codeAt(user.secret, step() + 1);
    const first = await passwordStep(user.email);
    const ok = await postJson(first, "/two-factor/verify-totp", { code });
    expect(ok.status).toBe(200);
    expect(sessionCookieSet(ok)).toBe(true);

    const second = await passwordStep(user.email);
    const reused = await postJson(second, "/two-factor/verify-totp", { code });
    expect(reused.status).toBe(401);
    expect(await messageOf(reused)).toMatch(/already been used/);
    expect(sessionCookieSet(reused)).toBe(false);
    // The confirmation's code, from an earlier step, is spent too.
    const older = await postJson(second, "/two-factor/verify-totp", { code: await codeAt(user.secret, step()) });
    expect(older.status).toBe(401);
  });

  it("two sign-ins racing with one code: exactly one gets in", async () => {
    const user = await userWithTwoFactor();
    const code = await codeAt(user.secret, step() + 1);
    const [a, b] = [await passwordStep(user.email), await passwordStep(user.email)];
    const results = await Promise.all([postJson(a, "/two-factor/verify-totp", { code }), postJson(b, "/two-factor/verify-totp", { code })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});

describe("finding 9: sign-up does not tell whether an address has an account", () => {
  it("answers a taken address like a new one without a session, and e-mails the owner", async () => {
    const owner = await signUpAs(app, "consumer");
    const fresh = await postJson(new SessionClient(app), "/sign-up/email", { name: "New Person", email: uniqueEmail(), password: TEST_PASSWORD, ageConfirmed: true });
    const taken = await postJson(new SessionClient(app), "/sign-up/email", { name: "Someone Else", email: owner.email.toUpperCase(), password: "another-pass", ageConfirmed: true });
    expect(taken.status).toBe(fresh.status);
    const body = (await taken.json()) as { token: unknown; user: Record<string, unknown> };
    const freshBody = (await fresh.json()) as { user: Record<string, unknown> };
    expect(body.token).toBeNull();
    expect(Object.keys(body.user).sort()).toEqual(Object.keys(freshBody.user).sort());
    expect(body.user.id).not.toBe(owner.id);
    expect(sessionCookieSet(taken)).toBe(false);
    expect(JSON.stringify(body)).not.toMatch(/exist/i);
    const accounts = await app.database.db.select({ id: users.id }).from(users).where(eq(users.email, owner.email));
    expect(accounts).toEqual([{ id: owner.id }]);
    expect(await mailsTo(owner.email, "Someone tried to sign up with your e-mail address")).toBe(1);
  });

  it("the sign-up form shows a neutral message for a taken address, not 'already exists'", async () => {
    const owner = await signUpAs(app, "digger");
    const response = await new SessionClient(app).post("/auth", {
      intent: "sign-up",
      fullName: "Someone Else",
      email: owner.email,
      password: "another-pass",
      userType: "consumer",
      ageConfirmed: "on",
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(SIGN_UP_CHECK_INBOX);
    expect(html).not.toMatch(/already exists/i);
  });
});

describe("Better Auth's e-mail confirmation link (found while fixing issue 16)", () => {
  it.each(["https://evil.example/phish", "//evil.example", "%%bad"])("refuses a callbackURL (%s): no redirect off the site, no 500", async (callbackURL) => {
    const response = await new SessionClient(app).get(`/api/auth/verify-email?token=forged&callbackURL=${encodeURIComponent(callbackURL)}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });
});
