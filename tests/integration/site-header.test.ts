/**
 * The site header's data (server/site-header.ts): the root loader's one operation, one query
 * for the bell's count, the unread threads and a digger's own profile. The labels it drives on
 * the pages are asserted by notifications.test.ts ('Notifications, N unread'),
 * messages.test.ts ('Messages, N unread') and own-profile.test.ts (My Profile).
 */
import type { SessionUser } from "../../core/session-user.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications } from "../../server/db/schema.ts";
import { UNREAD_COUNT_CAP } from "../../server/notifications/bell.ts";
import { perform } from "../../server/operation.ts";
import { siteHeader } from "../../server/site-header.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { diggerWithProfile } from "../support/leads.ts";

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
});

/** The header as the root loader asks for it, for `user`, with no refreshed session cookies. */
const headerOf = (user: SessionUser | null) =>
  perform(siteHeader, { user, clientIp: "127.0.0.1", logger: app.services.logger, sessionId: undefined, userAgent: null, sessionCookies: [] }, { services: app.services });

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
    expect(header).toEqual({ user, unreadNotifications: 3, unreadThreads: 0, myProfileId: null, sessionCookies: [] });

    await unread(owner, UNREAD_COUNT_CAP + 5);
    expect((await headerOf(user)).unreadNotifications).toBe(UNREAD_COUNT_CAP);
  });

  it("gives a digger their own profile's id, and the page shows it with the count", async () => {
    const digger = await diggerWithProfile(app);
    await unread(digger, 2);
    const header = await headerOf(asUser(digger, "digger"));
    expect([header.myProfileId, header.unreadNotifications]).toEqual([digger.diggerId, 2]);
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
