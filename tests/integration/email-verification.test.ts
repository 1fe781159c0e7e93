/**
 * E-mail confirmation (issue 16; design.md section 7): a gig is public (Browse Gigs, search,
 * the landing page, the sitemap, its page, buying) only once its client confirmed their
 * e-mail by the link sent to it; a provider-verified e-mail counts as confirmed. Through real
 * HTTP, the real SMTP peer and a local OpenID Connect provider, with the page cache on as in
 * production.
 */
import { randomUUID } from "node:crypto";
import { signJWT } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { almostDoneText } from "../../core/gig-texts.ts";
import { gigs, leadPurchases, users } from "../../server/db/schema.ts";
import { TEST_PASSWORD } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { decodeHtml, diggerWithProfile, topLevelCategoryId, type TestDigger } from "../support/leads.ts";
import { startOidcProvider, type Identity } from "../support/oidc.ts";
import { location, SessionClient } from "../support/session-client.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";

const SUBJECT = "Confirm your e-mail for Digs & Gigs";
/** My Gigs while a gig waits for the confirmation (issue 47): 'Almost done: ... We sent a link to {email}.' */
const NOTICE = "Almost done: confirm your e-mail to publish your gig.";

let app: TestApp;
let smtp: TestSmtpServer;
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
let categoryId: string;
let digger: TestDigger;

beforeAll(async () => {
  smtp = await startSmtpServer();
  oidc = await startOidcProvider();
  app = await createTestApp({
    SMTP_URL: smtp.url,
    PAGE_CACHE_SECONDS: "60",
    GOOGLE_CLIENT_ID: "dg-google",
    GOOGLE_CLIENT_SECRET: "dg-google-secret",
    GOOGLE_DISCOVERY_URL: oidc.discoveryUrl,
  });
  categoryId = await topLevelCategoryId(app);
  digger = await diggerWithProfile(app);
});
afterAll(async () => {
  await app?.close();
  await oidc?.stop();
  await smtp?.stop();
});

const visitor = () => new SessionClient(app);
const text = async (response: Response | Promise<Response>) => decodeHtml(await (await response).text());

/** A client signed up through the real form: not confirmed yet. */
async function signUp() {
  const client = new SessionClient(app);
  const email = `client-${randomUUID()}@example.com`;
  const response = await client.post("/auth", { intent: "sign-up", fullName: "Nina Newcomer", email, password: TEST_PASSWORD, userType: "consumer", ageConfirmed: "on" });
  expect(response.status).toBe(302);
  return { client, email };
}

/** The confirmation links e-mailed to `email`, oldest first (waits a moment for the first). */
async function confirmationLinks(email: string, atLeast = 1): Promise<string[]> {
  const links = () =>
    smtp.messages
      .filter((m) => m.envelope.to.includes(email) && m.parsed.subject === SUBJECT)
      .map((m) => new URL(/https?:\/\/\S+\/verify-email\?token=\S+/.exec(m.parsed.text ?? "")![0]))
      .map((url) => `${url.pathname}${url.search}`);
  for (let i = 0; i < 50 && links().length < atLeast; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  return links();
}

/**
 * Posts a gig: published, 'Gig posted successfully!' on the home page; not yet (the e-mail is not
 * confirmed), My Gigs with 'Almost done: ...' naming the address the link went to (issue 47).
 */
async function postGig(client: SessionClient) {
  const title = `Rewire the garage ${randomUUID().slice(0, 8)}`;
  const response = await client.post("/post-gig", validGigForm(categoryId, { title }));
  const [gig] = await app.database.db.select().from(gigs).where(eq(gigs.title, title));
  if (gig!.published) {
    expect(location(response)).toBe("/");
    expect(await text(client.get("/"))).toContain("Gig posted successfully!");
  } else {
    expect(location(response)).toBe("/my-gigs");
    const [owner] = await app.database.db.select({ email: users.email }).from(users).where(eq(users.id, gig!.clientId));
    const myGigs = await text(client.get("/my-gigs"));
    expect(myGigs).toContain(almostDoneText(owner!.email));
    expect(myGigs).not.toContain("Gig posted successfully!");
  }
  return gig!;
}

const emailVerified = async (email: string) =>
  (await app.database.db.select({ v: users.emailVerified }).from(users).where(eq(users.email, email)))[0]!.v;

/** Where the gig shows for everyone but its client; each place as true or false. */
async function publicPlaces(gig: { id: string; title: string }) {
  // By id: a search page repeats the searched title in its form.
  const search = `/browse-gigs?q=${encodeURIComponent(gig.title)}`;
  const gigPage = await digger.client.get(`/gig/${gig.id}`);
  return {
    browse: (await text(visitor().get(search))).includes(gig.id),
    browseData: (await text(visitor().get(search.replace("?", ".data?")))).includes(gig.id),
    browseFirstPage: (await text(visitor().get("/browse-gigs"))).includes(gig.id),
    landing: (await text(visitor().get("/"))).includes(gig.id),
    sitemap: (await text(visitor().get("/sitemap.xml"))).includes(gig.id),
    gigPageForDigger: gigPage.status === 200,
    gigPageForVisitor: (await visitor().get(`/gig/${gig.id}`)).status === 200,
  };
}
const everywhere = (shown: boolean) => ({
  browse: shown,
  browseData: shown,
  browseFirstPage: shown,
  landing: shown,
  sitemap: shown,
  gigPageForDigger: shown,
  gigPageForVisitor: shown,
});

describe("e-mail confirmation", () => {
  it("e-mails a link at sign-up; opening it only shows the Confirm button", async () => {
    const { email } = await signUp();
    const [link] = await confirmationLinks(email);
    expect(link).toMatch(/^\/verify-email\?token=/);
    const page = await visitor().get(link!);
    expect(page.status).toBe(200);
    expect(await text(page)).toContain("Confirm my e-mail</button>");
    // A mail scanner that opens the link confirms nothing.
    expect(await emailVerified(email)).toBe(false);
  });

  it("keeps a gig posted before confirming off every public place, and unbuyable", async () => {
    const { client } = await signUp();
    const gig = await postGig(client);
    expect(gig.status).toBe("open");

    expect(await publicPlaces(gig)).toEqual(everywhere(false));
    const refused = await digger.client.get(`/gig/${gig.id}`);
    expect(location(refused)).toBe("/browse-gigs");
    expect(await text(digger.client.get("/browse-gigs"))).toContain("Gig not found");

    const buy = await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    expect(location(buy)).toBe("/browse-gigs");
    expect(await app.database.db.select().from(leadPurchases).where(eq(leadPurchases.gigId, gig.id))).toEqual([]);

    // Its client sees it, and why it is not public.
    const own = await client.get(`/gig/${gig.id}`);
    expect(own.status).toBe(200);
    expect(await text(own)).toContain("Not published yet");
    const myGigs = await text(client.get("/my-gigs"));
    expect(myGigs).toContain(gig.title);
    expect(myGigs).toContain(NOTICE);
    expect(myGigs).toContain("Resend confirmation e-mail");
    // Its badge says what it waits for, not 'open' and Active.
    expect(myGigs).toContain(">Waiting for e-mail confirmation</span>");
    expect(myGigs).not.toContain(">Active<");
  });

  it("publishes the client's gigs when the link's button is pressed", async () => {
    const { client, email } = await signUp();
    const gig = await postGig(client);
    // A signed-out view of the search is cached meanwhile.
    const search = `/browse-gigs?q=${encodeURIComponent(gig.title)}`;
    await visitor().get(search);
    expect((await visitor().get(search)).headers.get("X-Page-Cache")).toBe("hit");

    const [link] = await confirmationLinks(email);
    const confirmed = await client.post(link!, { token: new URL(link!, app.config.publicUrl).searchParams.get("token")! });
    expect(location(confirmed)).toBe("/my-gigs");
    const myGigs = await text(client.get("/my-gigs"));
    expect(myGigs).toContain("E-mail confirmed. Your gigs are now published.");
    expect(myGigs).not.toContain(NOTICE);
    expect(await emailVerified(email)).toBe(true);

    expect(await publicPlaces(gig)).toEqual(everywhere(true));
    const buy = await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    expect(location(buy)).toMatch(/^\/checkout\//);
    // Gigs posted from now on are published at once.
    const next = await postGig(client);
    expect((await publicPlaces(next)).browse).toBe(true);
  });

  it("confirms from a browser that is signed out, and sends it to sign in", async () => {
    const { client, email } = await signUp();
    const gig = await postGig(client);
    const [link] = await confirmationLinks(email);
    const response = await visitor().post(link!, { token: new URL(link!, app.config.publicUrl).searchParams.get("token")! });
    expect(location(response)).toBe("/auth?redirect=/my-gigs");
    expect(await emailVerified(email)).toBe(true);
    expect((await publicPlaces(gig)).browse).toBe(true);
  });

  it("changes nothing for a forged, foreign or expired token, and says the link is invalid", async () => {
    const { client, email } = await signUp();
    const gig = await postGig(client);
    const [user] = await app.database.db.select().from(users).where(eq(users.email, email));
    const tokens = [
      "forged",
      await signJWT({ email, userId: user!.id }, "another-secret-that-is-long-enough-1234", 3600),
      await signJWT({ email, userId: user!.id }, app.config.authSecret, -60),
    ];
    for (const token of tokens) {
      const response = await client.post(`/verify-email?token=${encodeURIComponent(token)}`, { token });
      expect(location(response)).toBe("/my-gigs");
      expect(await text(client.get("/my-gigs"))).toContain("This confirmation link is invalid or has expired.");
    }
    expect(await emailVerified(email)).toBe(false);
    expect(await publicPlaces(gig)).toEqual(everywhere(false));
  });

  it("resends the link from My Gigs, at most 5 e-mails an hour per address", async () => {
    const { client, email } = await signUp();
    await postGig(client);
    const resend = await client.post("/my-gigs", { intent: "resend-confirmation" });
    expect(resend.status).toBe(200);
    expect(await text(resend)).toContain("Confirmation e-mail sent. Check your inbox.");
    expect(await confirmationLinks(email, 2)).toHaveLength(2);

    for (let i = 0; i < 2; i += 1) expect((await client.post("/my-gigs", { intent: "resend-confirmation" })).status).toBe(200);
    // Another client address (Better Auth's own limit is per address: 3 a minute) gets one more, then no more.
    const elsewhere = new SessionClient(app);
    expect((await elsewhere.post("/auth", { intent: "sign-in", email, password: TEST_PASSWORD })).status).toBe(302);
    expect((await elsewhere.post("/my-gigs", { intent: "resend-confirmation" })).status).toBe(200);
    const flood = await elsewhere.post("/my-gigs", { intent: "resend-confirmation" });
    expect(flood.status).toBe(429);
    expect(await text(flood)).toContain("Too many attempts.");
    expect(await confirmationLinks(email, 5)).toHaveLength(5);

    // The newest link works like the first.
    const last = (await confirmationLinks(email, 5)).at(-1)!;
    expect(location(await client.post(last, { token: new URL(last, app.config.publicUrl).searchParams.get("token")! }))).toBe("/my-gigs");
    expect(await emailVerified(email)).toBe(true);
    const again = await elsewhere.post("/my-gigs", { intent: "resend-confirmation" });
    expect(again.status).toBe(400);
    expect(await text(again)).toContain("Your e-mail is already confirmed.");
  });

  it("empties the page cache when Better Auth's own GET endpoint confirms", async () => {
    const { client, email } = await signUp();
    const gig = await postGig(client);
    const search = `/browse-gigs?q=${encodeURIComponent(gig.title)}`;
    await visitor().get(search);
    expect((await visitor().get(search)).headers.get("X-Page-Cache")).toBe("hit");
    const token = new URL(`http://x${(await confirmationLinks(email))[0]!}`).searchParams.get("token")!;
    expect((await visitor().get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    const after = await visitor().get(search);
    expect(after.headers.get("X-Page-Cache")).toBe("miss");
    expect(await text(after)).toContain(`/gig/${gig.id}`);
  });
});

describe("sign-in with a provider", () => {
  async function socialSignIn(identity: Identity) {
    oidc.nextIdentity(identity);
    const client = new SessionClient(app);
    const start = await client.post("/auth?redirect=/", { intent: "social", provider: "google", userType: "consumer", ageConfirmed: "on" });
    const back = await fetch(location(start)!, { redirect: "manual" });
    const done = await client.get(back.headers.get("location")!);
    expect(done.status).toBe(302);
    return client;
  }

  it("counts a provider-verified e-mail as confirmed: the gig is published at once", async () => {
    const identity = { sub: randomUUID(), email: `social-${randomUUID()}@example.com`, name: "Vera Verified" };
    const client = await socialSignIn(identity);
    expect(await emailVerified(identity.email)).toBe(true);
    const gig = await postGig(client);
    expect(await publicPlaces(gig)).toEqual(everywhere(true));
    expect(await text(client.get("/my-gigs"))).not.toContain(NOTICE);
    expect(await confirmationLinks(identity.email, 0)).toEqual([]);
  });

  it("sends the link when the provider does not vouch for the e-mail", async () => {
    const identity = { sub: randomUUID(), email: `social-${randomUUID()}@example.com`, name: "Una Unverified", emailVerified: false };
    const client = await socialSignIn(identity);
    const gig = await postGig(client);
    expect((await publicPlaces(gig)).browse).toBe(false);
    expect(await confirmationLinks(identity.email)).toHaveLength(1);
  });
});

describe("the database keeps gigs.published equal to the client's confirmation", () => {
  it("for gigs written by any means, and when the confirmation changes", async () => {
    const db = app.database.db;
    const id = randomUUID();
    await db.insert(users).values({ id, name: "Direct Writer", email: `${id}@example.com`, userType: "consumer" });
    await db.insert(users).values({ id: `${id}-ok`, name: "Direct Writer", email: `${id}-ok@example.com`, userType: "consumer", emailVerified: true });
    const row = (clientId: string, published: boolean) => ({
      clientId,
      published,
      title: `Direct gig ${randomUUID().slice(0, 8)}`,
      description: "Written straight to the database, as a job or an import would.",
      location: "Austin, TX",
      timeline: "Soon",
      categoryId,
    });
    // What a writer says is ignored: the client's confirmation decides.
    const [unconfirmed] = await db.insert(gigs).values(row(id, true)).returning();
    const [confirmed] = await db.insert(gigs).values(row(`${id}-ok`, false)).returning();
    expect([unconfirmed!.published, confirmed!.published]).toEqual([false, true]);
    await db.update(users).set({ emailVerified: true }).where(eq(users.id, id));
    expect((await db.select().from(gigs).where(eq(gigs.id, unconfirmed!.id)))[0]!.published).toBe(true);
    await db.update(users).set({ emailVerified: false }).where(eq(users.id, id));
    expect((await db.select().from(gigs).where(eq(gigs.id, unconfirmed!.id)))[0]!.published).toBe(false);
  });
});
