/**
 * The site header's data (server/site-header.ts): the root loader's one operation, one query
 * for the bell's count, the unread threads and a digger's own profile. The labels it drives on
 * the pages are asserted by notifications.test.ts ('Notifications, N unread'),
 * messages.test.ts ('Messages, N unread') and own-profile.test.ts (My Profile).
 */
import type { SessionUser } from "../../core/session-user.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { notifications, users } from "../../server/db/schema.ts";
import { UNREAD_COUNT_CAP } from "../../server/notifications/view-notifications.ts";
import { perform } from "../../server/operation.ts";
import { ownFigures } from "../../server/own-figures.ts";
import { siteHeader } from "../../server/site-header.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, diggerWithProfile } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

const CACHE_COOKIE = "dg.session_data";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const asUser = (user: TestUser, userType: SessionUser["userType"]): SessionUser => ({
  id: user.id,
  name: user.fullName,
  email: user.email,
  userType,
  twoFactorEnabled: false,
  operator: false,
  timeZone: null,
});

/** The header as the root loader asks for it, for `user`, with no refreshed session cookies (a request of its own: its figures are read afresh). */
const headerOf = (user: SessionUser | null) =>
  perform(siteHeader, { user, request: new Request("http://localhost/"), clientIp: "127.0.0.1", logger: app.services.logger, sessionId: undefined, userAgent: null, sessionCookies: [] }, { services: app.services });

async function unread(user: Pick<TestUser, "id">, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({ userId: user.id, kind: "gig.filled", text: `Event ${i}`, link: "/my-leads" }));
  await app.database.db.insert(notifications).values(rows);
}

describe("the site header's operation", () => {
  it("gives a visitor no counts and no profile", async () => {
    expect(await headerOf(null)).toEqual({
      user: null,
      unreadNotifications: 0,
      unreadThreads: 0,
      myProfileId: null,
      myArea: null,
      sessionCookies: [],
    });
  });

  it("counts the user's own unread notifications only, capped like the bell; a consumer has no profile", async () => {
    const owner = await signUpAs(app, "consumer", "Hettie Header");
    const other = await signUpAs(app, "consumer");
    await unread(owner, 3);
    await unread(other, 2);
    await app.database.db.insert(notifications).values({ userId: owner.id, kind: "gig.filled", text: "Read already", link: "/", readAt: new Date() });
    const user = asUser(owner, "consumer");
    const header = await headerOf(user);
    expect(header).toEqual({ user, unreadNotifications: 3, unreadThreads: 0, myProfileId: null, myArea: null, sessionCookies: [] });

    await unread(owner, UNREAD_COUNT_CAP + 5);
    expect((await headerOf(user)).unreadNotifications).toBe(UNREAD_COUNT_CAP);
  });

  it("gives a digger their own profile's id, and the page shows it with the count", async () => {
    const digger = await diggerWithProfile(app);
    await unread(digger, 2);
    const header = await headerOf(asUser(digger, "digger"));
    expect([header.myProfileId, header.unreadNotifications, header.myArea]).toEqual([digger.diggerId, 2, "Austin"]);
    const page = await (await digger.client.get("/browse-gigs")).text();
    expect(page).toContain('aria-label="Notifications, 2 unread"');
    expect(page).toMatch(new RegExp(`href="/digger/${digger.diggerId}"[^>]*>My Profile<`));
  });

  it("has the root set the session's refreshed cookies on the response, never in the page's data", async () => {
    const user = await signUpAs(app, "consumer", "Rufus Refresh");
    // Without its signed cache cookie the session is read from the database, and Better Auth
    // hands back a fresh one: the root forwards it.
    user.client.cookies.delete(CACHE_COOKIE);
    const page = await user.client.get("/terms");
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie().some((cookie) => cookie.startsWith(`${CACHE_COOKIE}=`))).toBe(true);
    const html = await page.text();
    expect(html).toContain("Rufus Refresh");
    expect(html).not.toContain("sessionCookies");
    expect(html).not.toContain(CACHE_COOKIE);
  });
});

/**
 * The statements sent to the database while `during` runs whose text matches `pattern`: a
 * pass-through spy on the driver (PGlite's client, or the pg pool Drizzle sends through).
 */
async function statementsMatching(pattern: RegExp, during: () => Promise<unknown>): Promise<number> {
  const { driver } = app.database;
  const textOf = (query: unknown) => (typeof query === "string" ? query : ((query as { text?: string } | null)?.text ?? ""));
  const spy = driver.kind === "pglite" ? vi.spyOn(driver.client, "query") : vi.spyOn(driver.pool, "query");
  try {
    await during();
    return spy.mock.calls.filter(([query]) => pattern.test(textOf(query))).length;
  } finally {
    spy.mockRestore();
  }
}

/** A statement that reads a user's digger profile by the user's id: the header's, or a rule's of its own. */
const READS_OWN_PROFILE = /from "digger_profiles" where "digger_profiles"\."user_id" = \$/;

describe("the user's own figures (server/own-figures.ts), read once a request", () => {
  it("are read in one statement for a digger page: its digger rule takes the profile's id from the header's", async () => {
    const digger = await diggerWithProfile(app);
    await unread(digger, 1);
    for (const path of ["/my-leads", "/my-leads.data"]) {
      let answer: Response | undefined;
      expect(await statementsMatching(READS_OWN_PROFILE, async () => (answer = await digger.client.get(path)))).toBe(1);
      expect(answer!.status).toBe(200);
      // The page and its header both got them: the bell's count and My Profile.
      const body = await answer!.text();
      expect(body).toContain(path.endsWith(".data") ? "unreadNotifications" : 'aria-label="Notifications, 1 unread"');
      expect(body).toContain(digger.diggerId);
    }
  });

  it("are read afresh for each request, so a change shows at the next: once for the same request", async () => {
    const digger = await diggerWithProfile(app);
    const request = new Request("http://localhost/my-leads");
    const first = await ownFigures(app.services.db, request, digger.id);
    await unread(digger, 2);
    expect(await ownFigures(app.services.db, request, digger.id)).toBe(first);
    expect(first).toEqual({ unreadNotifications: 0, unreadThreads: 0, profileId: digger.diggerId, profileLocation: "Austin, TX" });
    expect((await ownFigures(app.services.db, new Request("http://localhost/my-leads"), digger.id)).unreadNotifications).toBe(2);
  });
});

/** The Main navigation's links in the page's HTML, in order: [label, href] (a badge's count left out). */
function mainLinks(html: string): Array<[string, string]> {
  const nav = /<nav aria-label="Main"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gs)].map(([, href, inner]) => {
    const shown = /<span aria-hidden="true">([^<]*)<\/span>/.exec(inner!)?.[1] ?? inner!.replace(/<[^>]*>/g, "");
    return [shown.replaceAll("&amp;", "&"), href!.replaceAll("&amp;", "&")];
  });
}

describe("the top bar's links by role (issue 47), in the page's HTML", () => {
  it("offers a visitor both browse pages and the spec's links; Get Started opens the Sign Up tab on the way to posting a gig", async () => {
    const html = await (await new SessionClient(app).get("/terms")).text();
    expect(mainLinks(html)).toEqual([
      ["Browse Gigs", "/browse-gigs"],
      ["Browse Talent", "/browse-diggers"],
      ["How It Works", "/how-it-works"],
      ["Contact", "/contact"],
    ]);
    expect(html).toMatch(/href="\/auth"[^>]*>Sign In</);
    expect(html).toMatch(/href="\/auth\?redirect=\/post-gig&amp;tab=signup"[^>]*>Get Started</);
  });

  it("gives a digger Browse Gigs in their own area first, then My Leads, Messages with its unread count, Visits, Reference Requests and Account", async () => {
    const lead = await boughtLead(app);
    // The client writes: the digger has one unread thread.
    await lead.client.client.post(`/messages/${lead.threadId}`, { intent: "send", body: "Are you free on Monday?" });
    const html = await (await lead.digger.client.get("/terms")).text();
    expect(mainLinks(html)).toEqual([
      ["Browse Gigs", "/browse-gigs?location=Austin"],
      ["My Leads", "/my-leads"],
      ["Messages", "/messages"],
      ["Visits", "/visits"],
      ["Reference Requests", "/reference-requests"],
      ["Account", "/account"],
      ["How It Works", "/how-it-works"],
      ["Contact", "/contact"],
    ]);
    expect(html).toContain("Messages, 1 unread");
    expect(html).toMatch(/href="\/digger\/[^"]+"[^>]*>My Profile</);
    expect(html).toContain(">Sign Out<");
  });

  it("gives a client Post a Gig first (the main button), then My Gigs, Messages, Visits, Browse Talent and Account; an operator also the console", async () => {
    const client = await signUpAs(app, "consumer");
    const links = [
      ["Post a Gig", "/post-gig"],
      ["My Gigs", "/my-gigs"],
      ["Messages", "/messages"],
      ["Visits", "/visits"],
      ["Browse Talent", "/browse-diggers"],
      ["Account", "/account"],
      ["How It Works", "/how-it-works"],
      ["Contact", "/contact"],
    ];
    const html = await (await client.client.get("/terms")).text();
    expect(mainLinks(html)).toEqual(links);
    // Post a Gig once in the bar (the spec's action is that link).
    expect(html.split(/<nav aria-label="Main"/)[1]!.split("</nav>")[0]!.match(/>Post a Gig</g)).toHaveLength(1);

    await app.database.db.update(users).set({ operatorSince: new Date() }).where(eq(users.id, client.id));
    // The signed cookie's version moves by a NOTIFY (decision 0053): on PostgreSQL, a moment later.
    const operatorLinks = async () => mainLinks(await (await client.client.get("/terms")).text()).map(([label]) => label);
    await expect.poll(operatorLinks, { timeout: 10_000 }).toEqual(["Post a Gig", "My Gigs", "Messages", "Visits", "Browse Talent", "Operator console", "Account", "How It Works", "Contact"]);
  });
});
