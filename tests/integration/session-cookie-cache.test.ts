/**
 * Better Auth's signed cookie cache (issue 35, decision 0053): a signed-in request takes its
 * session from the signed `dg.session_data` cookie, and any change to the user's sessions or
 * user row counts at once, because migration 0041's triggers tell every process on the bus
 * (server/auth/session-versions.ts). The immediate sign-out, suspension, revocation and an
 * operator's removal are asserted, unchanged, by auth.test.ts, ops-users.test.ts,
 * operator-console.test.ts and live.test.ts.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../server/db/schema.ts";
import { deleteSessionsUnheard, signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { busCaughtUp } from "../support/bus.ts";
import { location } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const db = () => app.database.db;
const CACHE_COOKIE = "dg.session_data";

describe("the session cookie cache", () => {
  it("answers a signed-in page from the signed cookie, without the session's row", async () => {
    const user = await signUpAs(app, "consumer", "Cora Cached");
    expect((await user.client.get("/account")).status).toBe(200);
    expect(user.client.cookies.get(CACHE_COOKIE)).toBeTruthy();
    // Deleted behind the bus's back: only the cookie says who this is, and it is trusted.
    await deleteSessionsUnheard(app, user.id);
    const page = await user.client.get("/account");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Cora Cached");
  });

  it("stops trusting a user's cookie at the first change to their row or sessions", async () => {
    const user = await signUpAs(app, "consumer", "Nora Before");
    expect((await user.client.get("/account")).status).toBe(200);
    expect(user.client.cookies.get(CACHE_COOKIE)).toBeTruthy();
    // A new name shows as soon as the bus has heard it (the cookie carries the old one).
    await db().update(users).set({ name: "Nora After" }).where(eq(users.id, user.id));
    await busCaughtUp(app);
    const renamed = await (await user.client.get("/account")).text();
    expect(renamed).toContain("Nora After");
    expect(renamed).not.toContain("Nora Before");
    // A deleted session, heard: signed out at once.
    await db().delete(sessions).where(eq(sessions.userId, user.id));
    await busCaughtUp(app);
    const gone = await user.client.get("/account");
    expect(gone.status).toBe(302);
    expect(location(gone)).toBe("/auth?redirect=%2Faccount");
  });

  // It signs out every user of this file's database: the tests before it are done with theirs.
  it("stops trusting every cookie when the sessions are truncated (no row trigger fires for that)", async () => {
    const user = await signUpAs(app, "consumer", "Tess Truncated");
    expect((await user.client.get("/account")).status).toBe(200);
    expect(user.client.cookies.get(CACHE_COOKIE)).toBeTruthy();
    await db().execute(sql`truncate sessions cascade`);
    await busCaughtUp(app);
    const page = await user.client.get("/account");
    expect(page.status).toBe(302);
    expect(location(page)).toBe("/auth?redirect=%2Faccount");
  });

  it("reads the session from the database while the bus does not listen", async () => {
    const other = await createTestApp({}, { database: app.database });
    try {
      const user = await signUpAs(other, "consumer");
      expect((await user.client.get("/account")).status).toBe(200);
      await other.services.bus.close();
      await deleteSessionsUnheard(app, user.id);
      const page = await user.client.get("/account");
      expect(page.status).toBe(302);
      expect(location(page)).toBe("/auth?redirect=%2Faccount");
    } finally {
      await other.close();
    }
  });
});
