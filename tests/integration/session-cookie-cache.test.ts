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
import type { Auth } from "../../server/auth/auth.ts";
import { createSessionLookup } from "../../server/auth/session.ts";
import { sessions } from "../../server/db/schema.ts";
import { changeUser, deleteSessionsUnheard, signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { busCaughtUp } from "../support/bus.ts";
import { location, storeCookies } from "../support/session-client.ts";

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
    await changeUser(app, user.id, { name: "Nora After" });
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

/**
 * The process's memory of accepted cookies (server/auth/session.ts, decision 0059): the same
 * cookies again are answered without Better Auth's verification, and every reason Better Auth
 * would stop trusting them still counts at once. Better Auth is really called; the wrapper only
 * counts the calls.
 */
describe("the session lookup's verified cookies", () => {
  const counting = () => {
    const counter = { calls: 0 };
    const auth = app.services.auth;
    const getSession = ((context: Parameters<typeof auth.api.getSession>[0]) => {
      counter.calls += 1;
      return auth.api.getSession(context);
    }) as typeof auth.api.getSession;
    return { counter, auth: { ...auth, api: { ...auth.api, getSession } } as Auth };
  };
  const signedIn = async (name: string) => {
    const user = await signUpAs(app, "consumer", name);
    // A page view writes the signed cookie, as a browser holds it after its first page.
    expect((await user.client.get("/account")).status).toBe(200);
    expect(user.client.cookies.get(CACHE_COOKIE)).toBeTruthy();
    return { user, headers: new Headers({ cookie: user.client.cookieHeader() }) };
  };

  it("asks Better Auth once for the same cookies, and again after a change to the user is heard", async () => {
    const { counter, auth } = counting();
    const lookup = createSessionLookup(auth, app.services.sessionVersions);
    const { user, headers } = await signedIn("Vera Verified");
    for (let i = 0; i < 3; i++) expect((await lookup(headers)).user).toMatchObject({ id: user.id, name: "Vera Verified" });
    expect(counter.calls).toBe(1);
    await changeUser(app, user.id, { name: "Vera Renamed" });
    const renamed = await lookup(headers);
    expect(renamed.user?.name).toBe("Vera Renamed");
    expect(counter.calls).toBe(2);
    // The old cookie is stale now: Better Auth answers from the database and writes a new one,
    // which is not kept, so the old cookies keep going to Better Auth.
    expect(renamed.setCookies.length).toBeGreaterThan(0);
    await lookup(headers);
    expect(counter.calls).toBe(3);
  });

  it("signs out at once on a revoked session, as Better Auth's own check does", async () => {
    const { auth } = counting();
    const lookup = createSessionLookup(auth, app.services.sessionVersions);
    const { user, headers } = await signedIn("Rita Revoked");
    expect((await lookup(headers)).user?.id).toBe(user.id);
    await db().delete(sessions).where(eq(sessions.userId, user.id));
    await busCaughtUp(app);
    expect((await lookup(headers)).user).toBeNull();
  });

  it("keeps an answer no longer than the signed cookie lives", async () => {
    const { counter, auth } = counting();
    let clock = Date.now();
    const lookup = createSessionLookup(auth, app.services.sessionVersions, () => clock);
    const { headers } = await signedIn("Eli Expiring");
    await lookup(headers);
    await lookup(headers);
    expect(counter.calls).toBe(1);
    clock += 61_000; // the cookie's 60 s (server/auth/auth.ts) are over
    await lookup(headers);
    expect(counter.calls).toBe(2);
  });

  it("takes nothing from memory for other session cookies (a forged signature), and keys on the session cookies only", async () => {
    const { counter, auth } = counting();
    const lookup = createSessionLookup(auth, app.services.sessionVersions);
    const { user } = await signedIn("Otto Other");
    const jar = new Map(user.client.cookies);
    const header = (cookies: Map<string, string>) => new Headers({ cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") });
    expect((await lookup(header(jar))).user?.id).toBe(user.id);
    expect(counter.calls).toBe(1);
    // A cookie Better Auth does not read changes nothing, and makes no entry of its own.
    const extra = new Map(jar).set("dg.other", "1");
    expect((await lookup(header(extra))).user?.id).toBe(user.id);
    expect(counter.calls).toBe(1);
    // The cookie cache with its signature's first character changed (the last one's low bits are
    // padding, which a decoder ignores): Better Auth refuses it and reads the session from the
    // database (a fresh cookie written); nothing of it is kept.
    const data = jar.get(CACHE_COOKIE)!;
    const decoded = JSON.parse(Buffer.from(decodeURIComponent(data), "base64url").toString("utf8")) as { signature: string };
    decoded.signature = (decoded.signature.startsWith("A") ? "B" : "A") + decoded.signature.slice(1);
    const forged = new Map(jar).set(CACHE_COOKIE, Buffer.from(JSON.stringify(decoded)).toString("base64url"));
    const answer = await lookup(header(forged));
    expect(answer.setCookies.some((c) => c.includes(CACHE_COOKIE))).toBe(true);
    await lookup(header(forged));
    expect(counter.calls).toBe(3);
  });

  it("reads only Better Auth's own cookie names: a look-alike data cookie is not the data cookie", async () => {
    const { counter, auth } = counting();
    const lookup = createSessionLookup(auth, app.services.sessionVersions);
    const { user } = await signedIn("Lou Lookalike");
    // Signed in without "remember me": Better Auth answers such a session from the database
    // without writing a cookie when no data cookie comes, so only the name can tell.
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.config.publicUrl },
      body: JSON.stringify({ email: user.email, password: TEST_PASSWORD, rememberMe: false }),
    });
    expect(signIn.status).toBe(200);
    const jar = new Map<string, string>();
    storeCookies(jar, signIn.headers.getSetCookie());
    expect(jar.get("dg.dont_remember")).toBeTruthy();
    const forever = { session: { session: { id: "x", expiresAt: "2999-01-01T00:00:00Z" } }, expiresAt: Date.parse("2999-01-01") };
    const headers = new Headers({
      cookie: [
        `dg.session_token=${jar.get("dg.session_token")}`,
        `dg.dont_remember=${jar.get("dg.dont_remember")}`,
        `__Secure-dg.session_data=${Buffer.from(JSON.stringify(forever)).toString("base64url")}`,
      ].join("; "),
    });
    expect((await lookup(headers)).user?.id).toBe(user.id);
    expect((await lookup(headers)).user?.id).toBe(user.id);
    expect(counter.calls).toBe(2);
  });

  it("takes nothing from memory for a session cookie sent twice", async () => {
    const { counter, auth } = counting();
    const lookup = createSessionLookup(auth, app.services.sessionVersions);
    const { user } = await signedIn("Dot Double");
    const twice = new Headers({ cookie: `${user.client.cookieHeader()}; dg.session_token=${user.client.cookies.get("dg.session_token")}` });
    await lookup(twice);
    await lookup(twice);
    expect(counter.calls).toBe(2);
  });

  it("keeps nothing while the bus does not listen", async () => {
    const other = await createTestApp({}, { database: app.database });
    try {
      const { counter, auth } = counting();
      const lookup = createSessionLookup(auth, other.services.sessionVersions);
      const { headers } = await signedIn("Nell Unheard");
      await other.services.bus.close();
      await lookup(headers);
      await lookup(headers);
      expect(counter.calls).toBe(2);
    } finally {
      await other.close();
    }
  });
});
