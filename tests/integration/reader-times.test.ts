/**
 * Issue 47, times in the reader's zone: the browser's zone is kept at sign-up and sign-in (the
 * forms, the social round trip, Better Auth's JSON API), changed on /account, and every notice
 * (the bell, e-mail) is written in it.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails, notifications, users } from "../../server/db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { changeUser, signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { startOidcProvider } from "../support/oidc.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  oidc = await startOidcProvider();
  app = await createTestApp({ GOOGLE_CLIENT_ID: "dg-google", GOOGLE_CLIENT_SECRET: "dg-google-secret", GOOGLE_DISCOVERY_URL: oidc.discoveryUrl });
});
afterAll(async () => {
  await app.close();
  await oidc.stop();
});

const uniqueEmail = () => `zone-${randomUUID()}@example.com`;
const zoneOf = async (email: string) => (await app.database.db.select({ timeZone: users.timeZone }).from(users).where(eq(users.email, email)))[0]?.timeZone;
const zoneOfId = async (id: string) => (await app.database.db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, id)))[0]?.timeZone;

function signUpForm(client: SessionClient, email: string, timeZone?: string) {
  return client.post("/auth?redirect=/", {
    intent: "sign-up",
    fullName: "Zoe Zone",
    email,
    password: TEST_PASSWORD,
    userType: "consumer",
    ageConfirmed: "on",
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}

function postJson(client: SessionClient, path: string, body: unknown) {
  return client.send(`/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.config.publicUrl },
    body: JSON.stringify(body),
  });
}

describe("the browser's zone at sign-up and sign-in", () => {
  it("sign-up keeps the browser's zone with the new account", async () => {
    const email = uniqueEmail();
    const response = await signUpForm(new SessionClient(app), email, "America/Chicago");
    expect(response.status).toBe(302);
    expect(await zoneOf(email)).toBe("America/Chicago");
  });

  it.each([
    ["an unknown zone", "Mars/Olympus_Mons"],
    ["10 kB of text", "A".repeat(10_000)],
    ["an empty field", ""],
  ])("sign-up with %s makes the account, with no zone (the default)", async (_what, timeZone) => {
    const email = uniqueEmail();
    const response = await signUpForm(new SessionClient(app), email, timeZone);
    expect(response.status).toBe(302);
    expect(await zoneOf(email)).toBeNull();
  });

  it("sign-in keeps the browser's zone; an unknown one changes nothing and signs in all the same", async () => {
    const user = await signUpAs(app, "digger");
    const client = new SessionClient(app);
    const first = await client.post("/auth?redirect=/", { intent: "sign-in", email: user.email, password: TEST_PASSWORD, timeZone: "Asia/Tokyo" });
    expect(first.status).toBe(302);
    expect(await zoneOfId(user.id)).toBe("Asia/Tokyo");
    const junk = await new SessionClient(app).post("/auth?redirect=/", { intent: "sign-in", email: user.email, password: TEST_PASSWORD, timeZone: "<script>" });
    expect(junk.status).toBe(302);
    expect(await zoneOfId(user.id)).toBe("Asia/Tokyo");
  });

  it("a wrong password keeps nothing", async () => {
    const user = await signUpAs(app, "consumer");
    const wrong = await new SessionClient(app).post("/auth?redirect=/", { intent: "sign-in", email: user.email, password: "not-the-one", timeZone: "Asia/Tokyo" });
    expect(wrong.status).toBe(401);
    expect(await zoneOfId(user.id)).toBeNull();
  });

  it("a social sign-up brings the zone across the provider's round trip", async () => {
    const email = uniqueEmail();
    oidc.nextIdentity({ sub: randomUUID(), email, name: "Sol Social" });
    const client = new SessionClient(app);
    const start = await client.post("/auth?redirect=/how-it-works", { intent: "social", provider: "google", userType: "consumer", ageConfirmed: "on", timeZone: "America/Chicago" });
    expect(start.status).toBe(302);
    expect(start.headers.getSetCookie().some((c) => c.startsWith("dg_signup_zone=America%2FChicago;"))).toBe(true);
    const back = await fetch(location(start)!, { redirect: "manual" });
    const done = await client.get(back.headers.get("location")!);
    expect(location(done)).toBe("/how-it-works");
    expect(await zoneOf(email)).toBe("America/Chicago");
  });

  it("a social sign-in with an unknown zone sets no zone cookie", async () => {
    const start = await new SessionClient(app).post("/auth", { intent: "social", provider: "google", userType: "consumer", timeZone: "Nowhere/Land" });
    expect(start.status).toBe(302);
    expect(start.headers.getSetCookie().some((c) => c.startsWith("dg_signup_zone="))).toBe(false);
  });
});

describe("Better Auth's JSON API keeps no junk in the zone", () => {
  it("update-user refuses a zone: it is not an input", async () => {
    const user = await signUpAs(app, "consumer");
    const response = await postJson(user.client, "/update-user", { timeZone: "Asia/Tokyo" });
    expect(response.status).toBe(400);
    expect(await zoneOfId(user.id)).toBeNull();
  });

  it("sign-up keeps a known zone, drops 10 kB of junk, and answers a taken address with the same user object", async () => {
    const fresh = uniqueEmail();
    const made = await postJson(new SessionClient(app), "/sign-up/email", { name: "New Person", email: fresh, password: TEST_PASSWORD, ageConfirmed: true, timeZone: "Asia/Tokyo" });
    expect(made.status).toBe(200);
    const madeUser = ((await made.json()) as { user: Record<string, unknown> }).user;
    expect(madeUser.timeZone).toBe("Asia/Tokyo");
    expect(await zoneOf(fresh)).toBe("Asia/Tokyo");

    const junkEmail = uniqueEmail();
    const junk = await postJson(new SessionClient(app), "/sign-up/email", { name: "Junk Person", email: junkEmail, password: TEST_PASSWORD, ageConfirmed: true, timeZone: "x".repeat(10_000) });
    expect(junk.status).toBe(200);
    expect(((await junk.json()) as { user: Record<string, unknown> }).user.timeZone).toBeNull();
    expect(await zoneOf(junkEmail)).toBeNull();

    // The decoy for a taken address carries the submitted zone as a new account's answer does.
    const owner = await signUpAs(app, "consumer");
    for (const [timeZone, expected] of [["Asia/Tokyo", "Asia/Tokyo"], ["x".repeat(10_000), null]] as const) {
      const taken = await postJson(new SessionClient(app), "/sign-up/email", { name: "Someone Else", email: owner.email, password: "another-pass", ageConfirmed: true, timeZone });
      expect(taken.status).toBe(made.status);
      const decoy = ((await taken.json()) as { user: Record<string, unknown> }).user;
      expect(Object.keys(decoy).sort()).toEqual(Object.keys(madeUser).sort());
      expect(decoy.timeZone).toBe(expected);
    }
    expect(await zoneOfId(owner.id)).toBeNull();
  });
});

describe("/account's Time zone", () => {
  const selected = (html: string) => /<option value="([^"]+)" selected="">/.exec(html)?.[1];

  it("shows the default while the account has none, saves a zone that shows at once, and refuses an unknown one", async () => {
    const user = await signUpAs(app, "consumer");
    const other = await signUpAs(app, "digger");
    await other.client.post("/account", { intent: "time-zone", timeZone: "Europe/Paris" });
    const page = await (await user.client.get("/account")).text();
    expect(page).toContain(">Time zone<");
    expect(page).toContain(`Not set yet: dates and times are shown in the site&#x27;s default, ${app.config.defaultTimeZone}.`);
    expect(selected(page)).toBe(app.config.defaultTimeZone);
    expect(page).toContain('<option value="Asia/Tokyo">Asia/Tokyo</option>');

    const saved = await user.client.post("/account", { intent: "time-zone", timeZone: "America/Chicago" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Time zone saved.");
    expect(await zoneOfId(user.id)).toBe("America/Chicago");
    // The session's cookie is read again after the row's change: the page shows the new zone now.
    expect(selected(await (await user.client.get("/account")).text())).toBe("America/Chicago");

    for (const timeZone of ["Mars/Olympus_Mons", "x".repeat(10_000), ""]) {
      const refused = await user.client.post("/account", { intent: "time-zone", timeZone });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Choose a time zone from the list.");
    }
    expect(await zoneOfId(user.id)).toBe("America/Chicago");
    // Another account's choice is its own.
    expect(await zoneOfId(other.id)).toBe("Europe/Paris");
    expect(selected(await (await other.client.get("/account")).text())).toBe("Europe/Paris");
  });

  it("a visitor cannot save a zone", async () => {
    const response = await new SessionClient(app).post("/account", { intent: "time-zone", timeZone: "Asia/Tokyo" });
    expect([302, 401, 403]).toContain(response.status);
  });
});

describe("notices are written in the reader's zone", () => {
  // 7:47 PM on Nov 28, 2026 in Chicago: Nov 29, 1:47 AM UTC, 10:47 AM in Tokyo.
  const respondBy = new Date("2026-11-29T01:47:00Z");

  async function remindedOf(zone: string | null) {
    const client = await signUpAs(app, "consumer");
    if (zone) await changeUser(app, client.id, { timeZone: zone });
    const gigTitle = `Tile the bathroom ${randomUUID()}`;
    await app.database.db.transaction((tx) =>
      app.services.emit(tx, { kind: "issue.reminder", issueId: randomUUID(), clientUserId: client.id, gigTitle, issueType: "mistake", respondBy }),
    );
    const bell = await (await client.client.get("/notifications")).text();
    const [mail] = await app.database.db.select({ textBody: emails.textBody }).from(emails).where(eq(emails.toAddress, client.email));
    return { bell, mail: mail!.textBody };
  }

  it("a reader in America/Chicago reads the deadline in CST, in the bell and the e-mail", async () => {
    const { bell, mail } = await remindedOf("America/Chicago");
    expect(bell).toMatch(/Respond by Sat, Nov 28(, 2026)?, 7:47 PM CST\./);
    expect(mail).toMatch(/Respond by Sat, Nov 28(, 2026)?, 7:47 PM CST/);
    expect(bell).not.toContain("UTC");
  });

  it("a reader in Asia/Tokyo reads it as GMT+9", async () => {
    const { bell, mail } = await remindedOf("Asia/Tokyo");
    expect(bell).toMatch(/Respond by Sun, Nov 29(, 2026)?, 10:47 AM GMT\+9\./);
    expect(mail).toMatch(/Respond by Sun, Nov 29(, 2026)?, 10:47 AM GMT\+9/);
  });

  it("an account with no zone reads the site's default", async () => {
    const { bell } = await remindedOf(null);
    expect(app.config.defaultTimeZone).toBe("UTC");
    expect(bell).toMatch(/Respond by Sun, Nov 29(, 2026)?, 1:47 AM UTC\./);
  });

  it("the bell's own list writes each entry's time in the reader's zone", async () => {
    const reader = await signUpAs(app, "digger");
    await changeUser(app, reader.id, { timeZone: "America/Chicago" });
    await app.database.db.insert(notifications).values({ userId: reader.id, kind: "test", text: "An old one", link: "/notifications", createdAt: respondBy });
    const page = await (await reader.client.get("/notifications")).text();
    const entry = /title="Nov 28, 2026, 7:47 PM CST"[^>]*>([^<]+)<\/time>/.exec(page);
    // A list's time, by the reader's days ("Yesterday, 7:47 PM", "Sat, 7:47 PM", "Nov 28"...): never UTC's 1:47 AM.
    expect(entry?.[1]).toMatch(/7:47 PM$|^Nov 28/);

  });
});
