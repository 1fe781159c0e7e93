import { randomUUID } from "node:crypto";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../server/db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startOidcProvider } from "../support/oidc.ts";
import { dataRedirect, location, SessionClient } from "../support/session-client.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { jobsSettled } from "../support/jobs.ts";

let app: TestApp;
let smtp: TestSmtpServer;
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  oidc = await startOidcProvider();
  app = await createTestApp({
    SMTP_URL: smtp.url,
    GOOGLE_CLIENT_ID: "dg-google",
    GOOGLE_CLIENT_SECRET: "dg-google-secret",
    GOOGLE_DISCOVERY_URL: oidc.discoveryUrl,
    GITHUB_CLIENT_ID: "dg-github",
    GITHUB_CLIENT_SECRET: "dg-github-secret",
    GITHUB_DISCOVERY_URL: oidc.discoveryUrl,
    LINKEDIN_CLIENT_ID: "dg-linkedin",
    LINKEDIN_CLIENT_SECRET: "dg-linkedin-secret",
    LINKEDIN_DISCOVERY_URL: oidc.discoveryUrl,
  });
});
afterAll(async () => {
  await app.close();
  await oidc.stop();
  await smtp.stop();
});

const uniqueEmail = () => `user-${randomUUID()}@example.com`;
const PASSWORD = "correct-horse";

async function signUp(client: SessionClient, fields: Partial<Record<string, string>> = {}, redirect = "/") {
  const form = {
    intent: "sign-up",
    fullName: "Test Person",
    email: uniqueEmail(),
    password: PASSWORD,
    userType: "consumer",
    ageConfirmed: "on",
    ...fields,
  } as Record<string, string>;
  const response = await client.post(`/auth?redirect=${encodeURIComponent(redirect)}`, form);
  return { response, email: form.email! };
}
const signIn = (client: SessionClient, email: string, password = PASSWORD, redirect = "/") =>
  client.post(`/auth?redirect=${encodeURIComponent(redirect)}`, { intent: "sign-in", email, password });
const userByEmail = async (email: string) =>
  (await app.database.db.select().from(users).where(eq(users.email, email)))[0];

describe("sign-up", () => {
  it("creates a consumer, signs them in and goes to the redirect target", async () => {
    const client = new SessionClient(app);
    const { response, email } = await signUp(client, {}, "/post-gig");
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/post-gig");
    expect((await userByEmail(email))?.userType).toBe("consumer");
    const account = await (await client.get("/account")).text();
    expect(account).toContain(email);
    expect(account).toContain("Account created! Redirecting...");
  });

  it("creates a digger when Digger is chosen, and the header offers Complete Profile", async () => {
    const client = new SessionClient(app);
    const { email } = await signUp(client, { userType: "digger" });
    expect((await userByEmail(email))?.userType).toBe("digger");
    const html = await (await client.get("/")).text();
    expect(html).toContain("Complete Profile");
    expect(html).toContain("My Leads");
  });

  it.each([
    [{ fullName: "" }, "Full name is required"],
    [{ email: "" }, "Email is required"],
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{ password: "" }, "Password is required"],
    [{ password: "12345" }, "Password must be at least 6 characters"],
    [{ ageConfirmed: "" }, "Please confirm you are 18 or older"],
    [{ userType: "admin" }, "Please choose Consumer or Digger"],
  ])("rejects %j with the spec's message and creates nothing", async (change, message) => {
    const client = new SessionClient(app);
    const { response, email } = await signUp(client, change);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    if (email) expect(await userByEmail(email)).toBeUndefined();
  });

  it("answers an e-mail that already has an account neutrally, without saying so (issue 16)", async () => {
    const { email } = await signUp(new SessionClient(app));
    const { response } = await signUp(new SessionClient(app), { email });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Check your inbox: we have sent you an e-mail about your account.");
    expect(html).not.toMatch(/already exists/i);
  });
});

describe("sign-in and sign-out", () => {
  it("signs in and goes to the redirect target; a signed-in visit to /auth goes there too", async () => {
    const { email } = await signUp(new SessionClient(app));
    const client = new SessionClient(app);
    const response = await signIn(client, email, PASSWORD, "/my-gigs");
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/my-gigs");
    expect(await (await client.get("/")).text()).toContain("Signed in successfully!");
    const again = await client.get("/auth?redirect=/how-it-works");
    expect(again.status).toBe(302);
    expect(location(again)).toBe("/how-it-works");
  });

  it("keeps hostile redirect targets on the site", async () => {
    const { email } = await signUp(new SessionClient(app));
    for (const target of ["https://evil.example/phish", "//evil.example", "/\\evil.example"]) {
      const response = await signIn(new SessionClient(app), email, PASSWORD, target);
      expect(location(response)).toBe("/");
    }
  });

  it("answers a wrong password with the server's message and no session", async () => {
    const { email } = await signUp(new SessionClient(app));
    const client = new SessionClient(app);
    const response = await signIn(client, email, "wrong-password");
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("Invalid email or password");
    expect([...client.cookies.keys()].some((k) => k.includes("session_token"))).toBe(false);
  });

  it("requires e-mail and password", async () => {
    const response = await signIn(new SessionClient(app), "", "");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Email is required");
  });

  it("signs out on the server: the old session cookie no longer works", async () => {
    const client = new SessionClient(app);
    const { email } = await signUp(client);
    const stolenCookie = client.cookieHeader();
    const response = await client.post("/sign-out", {});
    expect(location(response)).toBe("/");
    expect(await (await client.get("/")).text()).toContain("Signed out successfully");
    const user = await userByEmail(email);
    expect(await app.database.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(0);
    const replay = await app.request("/account", { headers: { cookie: stolenCookie }, redirect: "manual" });
    expect(replay.status).toBe(302);
    expect(location(replay)).toBe("/auth?redirect=%2Faccount");
  });

  it("signs out on a POST without a form body too (a script's or an old page's Sign Out)", async () => {
    const client = new SessionClient(app);
    const { email } = await signUp(client);
    const response = await client.send("/sign-out", { method: "POST", headers: { origin: app.config.publicUrl } });
    expect(location(response)).toBe("/");
    const user = await userByEmail(email);
    expect(await app.database.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(0);
  });

  it("refuses a body that is not a form with 400 and its message, not a fault", async () => {
    for (const [type, body] of [
      ["text/plain", "email=a@example.com"],
      ["multipart/form-data; boundary=x", "not multipart at all"],
    ] as const) {
      const response = await new SessionClient(app).send("/auth", { method: "POST", headers: { origin: app.config.publicUrl, "content-type": type }, body });
      expect(response.status, type).toBe(400);
      expect(await response.text(), type).toContain("The form could not be read. Please reload the page and try again.");
    }
  });

  it("sets the session cookie HttpOnly and SameSite=Lax", async () => {
    const { response } = await signUp(new SessionClient(app));
    const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token"));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});

describe("rate limits", () => {
  it("limits failed sign-ins per e-mail address and client, with a clear message; other clients are not locked out", async () => {
    const { email } = await signUp(new SessionClient(app));
    const guesser = new SessionClient(app);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await signIn(guesser, email, "wrong-password");
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(await last!.text()).toContain("Too many attempts. Please wait a few minutes and try again.");
    // The owner, elsewhere, still signs in.
    expect(location(await signIn(new SessionClient(app), email))).toBe("/");
  });

  it("counts each failed sign-in before its password is checked: of 30 at once, at most the limit are checked, the rest answer 429", async () => {
    const { email } = await signUp(new SessionClient(app));
    // One client address (Better Auth's own limit lets 20 a minute through to ours).
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(new SessionClient(app, "192.0.2.90"), email, `wrong-${i}`)));
    const count = (status: number) => guesses.filter((response) => response.status === status).length;
    expect(count(401)).toBeLessThanOrEqual(10);
    expect(count(429)).toBe(30 - count(401));
    // The owner, elsewhere, still signs in.
    expect(location(await signIn(new SessionClient(app, "192.0.2.91"), email))).toBe("/");
  });

  it("gives back the attempt of a right password: only wrong ones use up the limit", async () => {
    const { email } = await signUp(new SessionClient(app));
    const address = "192.0.2.92";
    for (let i = 0; i < 9; i++) expect((await signIn(new SessionClient(app, address), email, "wrong-password")).status).toBe(401);
    for (let i = 0; i < 3; i++) expect(location(await signIn(new SessionClient(app, address), email))).toBe("/");
    expect((await signIn(new SessionClient(app, address), email, "wrong-password")).status).toBe(401);
    expect((await signIn(new SessionClient(app, address), email)).status).toBe(429);
  });

  it("limits sign-in attempts per client address", async () => {
    const client = new SessionClient(app, "192.0.2.77");
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await signIn(client, uniqueEmail(), "whatever")).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("password reset", () => {
  it("e-mails a one-time link; the new password works, the old one and other sessions do not", async () => {
    const firstDevice = new SessionClient(app);
    const { email } = await signUp(firstDevice);
    const oldSession = firstDevice.cookieHeader();

    const requested = await new SessionClient(app).post("/auth?view=forgot", { intent: "forgot-password", email });
    expect(requested.status).toBe(200);
    expect(await requested.text()).toContain("Password reset email sent! Check your inbox.");
    await jobsSettled(app.database.db);
    const mail = smtp.messages.find((m) => m.envelope.to.includes(email) && m.parsed.subject === "Reset your Digs & Gigs password")?.parsed;
    expect(mail).toBeDefined();
    const link = /http:\/\/localhost:3000\/reset-password\?token=[^\s]+/.exec(mail?.text ?? "")?.[0];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get("token")!;

    const page = await new SessionClient(app).get(`/reset-password?token=${token}`);
    expect(await page.text()).toContain("Set New Password");
    const reset = await new SessionClient(app).post("/reset-password", { token, password: "brand-new-pass" });
    expect(reset.status).toBe(302);
    expect(location(reset)).toBe("/auth");

    expect((await signIn(new SessionClient(app), email, PASSWORD)).status).toBe(401);
    expect((await signIn(new SessionClient(app), email, "brand-new-pass")).status).toBe(302);
    const replay = await app.request("/account", { headers: { cookie: oldSession }, redirect: "manual" });
    expect(replay.status).toBe(302);
    const reused = await new SessionClient(app).post("/reset-password", { token, password: "another-pass" });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("This reset link is invalid or has expired");
  });

  it("answers an unknown address exactly like a known one", async () => {
    const response = await new SessionClient(app).post("/auth", { intent: "forgot-password", email: uniqueEmail() });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Password reset email sent! Check your inbox.");
  });

  it("requires a valid e-mail", async () => {
    const response = await new SessionClient(app).post("/auth", { intent: "forgot-password", email: "nope" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Please enter a valid email address");
  });
});

describe("two-factor authentication", () => {
  const codeFor = (secret: string) => createOTP(base32.decode(secret)).totp();
  /** The next 30-second step's code (accepted too): the current one was spent confirming the app. */
  const nextCodeFor = (secret: string) => createOTP(base32.decode(secret)).hotp(Math.floor(Date.now() / 30_000) + 1);

  it("enrols with an authenticator app, then asks for a code or a backup code at sign-in", async () => {
    const client = new SessionClient(app);
    const { email } = await signUp(client);
    const enrol = await client.post("/account", { intent: "enable-two-factor", password: PASSWORD });
    const html = await enrol.text();
    expect(html).toContain("<svg");
    const secret = /secret=([A-Z2-7]+)/.exec(html)?.[1];
    expect(secret).toBeDefined();
    const list = /<ul aria-label="Backup codes"[^>]*>(.*?)<\/ul>/.exec(html)?.[1] ?? "";
    const backupCodes = [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]!);
    expect(new Set(backupCodes).size).toBe(10);

    const confirm = await client.post("/account", { intent: "confirm-two-factor", code: await codeFor(secret!) });
    expect(location(confirm)).toBe("/account");
    expect((await userByEmail(email))?.twoFactorEnabled).toBe(true);

    const device = new SessionClient(app);
    const step = await signIn(device, email);
    expect(step.status).toBe(200);
    expect(await step.text()).toContain("Two-factor authentication");
    const wrong = await device.post("/auth", { intent: "verify-totp", code: "000000" });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    // Without JavaScript too, a wrong code keeps the two-factor step (the failure names its form).
    expect(await wrong.text()).toContain("Two-factor authentication");
    const verified = await device.post("/auth?redirect=/account", { intent: "verify-totp", code: await nextCodeFor(secret!) });
    expect(location(verified)).toBe("/account");
    expect((await device.get("/account")).status).toBe(200);

    const other = new SessionClient(app);
    await signIn(other, email);
    const withBackup = await other.post("/auth", { intent: "verify-backup-code", code: backupCodes[0]! });
    expect(withBackup.status).toBe(302);
    const third = new SessionClient(app);
    await signIn(third, email);
    const reused = await third.post("/auth", { intent: "verify-backup-code", code: backupCodes[0]! });
    expect(reused.status).toBeGreaterThanOrEqual(400);
  });
});

describe("sign-in with a provider (local OpenID Connect server)", () => {
  async function socialSignIn(provider: string, userType: string, identity: { sub: string; email: string; name: string }) {
    oidc.nextIdentity(identity);
    const client = new SessionClient(app);
    // From the Sign Up tab, with its 18+ box ticked.
    const start = await client.post("/auth?redirect=/how-it-works", { intent: "social", provider, userType, ageConfirmed: "on" });
    expect(start.status).toBe(302);
    const authorize = location(start)!;
    expect(authorize.startsWith(oidc.issuer)).toBe(true);
    // The provider signs the user in and sends the browser back with a code.
    const back = await fetch(authorize, { redirect: "manual" });
    const callback = back.headers.get("location")!;
    expect(callback).toContain(`/api/auth/callback/${provider}`);
    const done = await client.get(callback);
    return { client, done };
  }

  it("offers each configured provider as a working button (an unconfigured one is disabled: tests/e2e/auth.spec.ts)", async () => {
    const html = await (await new SessionClient(app).get("/auth")).text();
    for (const provider of ["google", "github", "linkedin"]) {
      expect(html).toContain(`name="provider" value="${provider}"`);
    }
    expect(html).not.toContain("is not set up on this server");
  });

  it("signs up a digger through Google and records the user type", async () => {
    const email = uniqueEmail();
    const { client, done } = await socialSignIn("google", "digger", { sub: randomUUID(), email, name: "Gia Google" });
    expect(done.status).toBe(302);
    expect(location(done)).toBe("/how-it-works");
    const user = await userByEmail(email);
    expect(user).toMatchObject({ name: "Gia Google", userType: "digger" });
    expect(await (await client.get("/account")).text()).toContain(email);
  });

  it("signs up a consumer through LinkedIn by default, and signs the same person in again", async () => {
    const identity = { sub: randomUUID(), email: uniqueEmail(), name: "Lin Kedin" };
    await socialSignIn("linkedin", "consumer", identity);
    expect((await userByEmail(identity.email))?.userType).toBe("consumer");
    const { done } = await socialSignIn("linkedin", "digger", identity);
    expect(done.status).toBe(302);
    // Signing in again never changes the account's type.
    expect((await userByEmail(identity.email))?.userType).toBe("consumer");
  });

  it("signs in through GitHub too", async () => {
    const email = uniqueEmail();
    const { done } = await socialSignIn("github", "consumer", { sub: randomUUID(), email, name: "Gil Hub" });
    expect(location(done)).toBe("/how-it-works");
    expect((await userByEmail(email))?.name).toBe("Gil Hub");
  });

  it("answers a provider that is not configured with a clear message, not a redirect", async () => {
    const bare = await createTestApp();
    try {
      const response = await new SessionClient(bare).post("/auth", { intent: "social", provider: "github", userType: "consumer" });
      expect(response.status).toBe(503);
      expect(await response.text()).toContain("Sign-in with GitHub is not available on this site yet");
    } finally {
      await bare.close();
    }
  });

  it("refuses a provider it does not know with 400 and its message, and sets no cookie", async () => {
    for (const provider of [undefined, "", "facebook", "GOOGLE"]) {
      const form = { intent: "social", userType: "digger", ageConfirmed: "on", ...(provider === undefined ? {} : { provider }) };
      const response = await new SessionClient(app).post("/auth", form);
      expect(response.status, String(provider)).toBe(400);
      expect(await response.text(), String(provider)).toContain("Unknown sign-in provider");
      expect(response.headers.getSetCookie(), String(provider)).toEqual([]);
    }
  });
});

describe("Better Auth's error page (issue 30, finding 12)", () => {
  const LIE = "Your account is locked. Call +1 (555) 010-9999 to unlock it.";

  /** Follows the site's redirects from `path`: every answer on the way, the last one a page. */
  async function follow(path: string) {
    const client = new SessionClient(app);
    const answers: Array<{ path: string; status: number; body: string }> = [];
    for (let next: string | null = path; next !== null && answers.length < 5; ) {
      const response = await client.get(next);
      answers.push({ path: next, status: response.status, body: await response.text() });
      next = response.status >= 300 && response.status < 400 ? location(response) : null;
      // Only redirects on this site are followed; another site's address ends the walk.
      if (next !== null && !next.startsWith("/")) throw new Error(`redirected off the site: ${next}`);
    }
    return answers;
  }

  it("sends the page's address to /auth with the code alone, which shows our own message", async () => {
    const answers = await follow(`/api/auth/error?error=access_denied&error_description=${encodeURIComponent(LIE)}`);
    expect(answers[0]).toMatchObject({ status: 302 });
    expect(answers.map((a) => a.path)).toEqual([expect.stringContaining("/api/auth/error"), "/auth?error=access_denied"]);
    const page = answers.at(-1)!;
    expect(page.status).toBe(200);
    expect(page.body).toContain("Sign-in was cancelled.");
  });

  it("never shows the query's text, whatever the code and however the error page is reached", async () => {
    const description = encodeURIComponent(LIE);
    for (const path of [
      `/api/auth/error?error=access_denied&error_description=${description}`,
      `/api/auth/error?error=Your_account_is_locked&error_description=${description}`,
      `/api/auth/error?error=${encodeURIComponent("<b>locked</b>")}&error_description=${description}`,
      `/api/auth/error?error_description=${description}`,
      // A provider's callback with an error and no state of ours: Better Auth's redirect to its error page.
      `/api/auth/callback/google?error=access_denied&error_description=${description}`,
      `/auth?error=access_denied&error_description=${description}`,
    ]) {
      const answers = await follow(path);
      for (const answer of answers) expect(answer.body, answer.path).not.toContain("locked");
      const page = answers.at(-1)!;
      expect(page.path, path).toMatch(/^\/auth\?/);
      expect(page.status, path).toBe(200);
      // A code /auth does not know reads as the generic message (core/sign-in-errors.ts).
      expect(page.body, path).toMatch(/Sign-in was cancelled\.|Sign-in failed\. Please try again\.|Your sign-in expired/);
    }
    // A client navigation to it (/auth.data?…&_routes=…): to the page's own address, cleaned.
    const navigation = await new SessionClient(app).get(`/auth.data?error=access_denied&error_description=${description}&_routes=root,routes/auth`);
    expect(await dataRedirect(navigation)).toBe("/auth?error=access_denied");
    // Other spellings of the address (Better Auth's own route, which would print the text, is
    // told to send the browser to /auth too: server/auth/auth.ts).
    for (const path of [`/api/auth/error/?error=access_denied&error_description=${description}`, `/api/auth/ERROR?error_description=${description}`]) {
      for (const answer of await follow(path)) expect(answer.body, answer.path).not.toContain("locked");
    }
  });
});
