/**
 * The page cache (server/page-cache.ts): signed-out views of public pages are served again
 * until a write, never a signed-in view, never a private page, and each cached page keeps a
 * Content-Security-Policy nonce that matches its scripts. On PostgreSQL, two servers on one
 * database: a write on one empties the other's cache within a second (page-cache-bus.ts).
 */
import { randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../server/db/client.ts";
import { LISTENER_NAME as PAGE_CACHE_LISTENER_NAME } from "../../server/bus.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { validGigForm } from "../support/forms.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let clientUser: TestUser;
let categoryId: string;

const aTopCategory = async (server: TestApp) =>
  (await queryRows<{ id: string }>(server.database.db, sql`select id from categories where parent_category_id is null limit 1`))[0]!.id;

beforeAll(async () => {
  app = await createTestApp({ PAGE_CACHE_SECONDS: "2" });
  clientUser = await signUpAs(app, "consumer", "Cachey Consumerson");
  categoryId = await aTopCategory(app);
});
afterAll(() => app.close());

const visitor = () => new SessionClient(app);
const cacheState = (response: Response) => response.headers.get("X-Page-Cache");
const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];

async function postGig(title: string, by = clientUser, category = categoryId) {
  const response = await by.client.post("/post-gig", validGigForm(category, { title }));
  expect(location(response)).toBe("/");
}

describe("the page cache", () => {
  it("serves a signed-out page again, byte for byte, with the nonce its scripts carry", async () => {
    const path = `/browse-gigs?q=${randomUUID()}`;
    const first = await visitor().get(path);
    expect(cacheState(first)).toBe("miss");
    const firstBody = await first.text();
    const second = await visitor().get(path);
    expect(cacheState(second)).toBe("hit");
    const secondBody = await second.text();
    expect(secondBody).toBe(firstBody);
    const nonce = nonceOf(second);
    expect(nonce).toBeTruthy();
    expect(nonce).toBe(nonceOf(first));
    expect(secondBody).toContain(`nonce="${nonce}"`);
    // The data request of the same page is a page of its own.
    const data = await visitor().get(`${path.replace("?", ".data?")}`);
    expect(cacheState(data)).toBe("miss");
    expect(cacheState(await visitor().get(`${path.replace("?", ".data?")}`))).toBe("hit");
    // The home page's data request has its own address.
    const home = await visitor().get("/_.data");
    expect(home.status).toBe(200);
    expect(cacheState(await visitor().get("/_.data"))).toBe("hit");
  });

  it("keeps a compressed copy for browsers that ask for one", async () => {
    const path = `/browse-gigs?q=${randomUUID()}`;
    const plainResponse = await visitor().get(path);
    const plain = await plainResponse.text();
    const gzip = { "accept-encoding": "gzip, deflate" };
    const first = await app.request(path, { headers: gzip });
    expect(cacheState(first)).toBe("miss");
    expect(first.headers.get("Content-Encoding")).toBe("gzip");
    const second = await app.request(path, { headers: gzip });
    expect(cacheState(second)).toBe("hit");
    expect(second.headers.get("Content-Encoding")).toBe("gzip");
    const bytes = Buffer.from(await second.arrayBuffer());
    // Compressed, not only labelled so (an empty list's page: gzip takes it to about a third).
    expect(bytes.length).toBeLessThan(plain.length / 2);
    // The same page as the uncompressed copy, but for its own render's nonce and clock.
    const unzipped = gunzipSync(bytes).toString();
    expect(unzipped).toContain(`nonce="${nonceOf(second)}"`);
    const normal = (html: string, nonce: string) => html.replaceAll(nonce, "N").replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "T");
    expect(normal(unzipped, nonceOf(second)!)).toBe(normal(plain, nonceOf(plainResponse)!));
  });

  it("forgets everything at the next write, so a new gig shows at once", async () => {
    const title = `Cache busting gig ${randomUUID().slice(0, 8)}`;
    expect(cacheState(await visitor().get("/browse-gigs"))).toMatch(/miss|hit/);
    expect(cacheState(await visitor().get("/browse-gigs"))).toBe("hit");
    await postGig(title);
    const after = await visitor().get("/browse-gigs");
    expect(cacheState(after)).toBe("miss");
    expect(await after.text()).toContain(title);
  });

  it("forgets everything when a background job says public data changed", async () => {
    const path = `/browse-gigs?q=${randomUUID()}`;
    expect(cacheState(await visitor().get(path))).toBe("miss");
    expect(cacheState(await visitor().get(path))).toBe("hit");
    app.services.pageCache.invalidate();
    expect(cacheState(await visitor().get(path))).toBe("miss");
  });

  it("never serves or keeps a signed-in view", async () => {
    await visitor().get("/");
    const signedIn = await clientUser.client.get("/");
    expect(cacheState(signedIn)).toBeNull();
    expect(await signedIn.text()).toContain("Cachey");
    const signedOut = await visitor().get("/");
    expect(cacheState(signedOut)).toBe("hit");
    expect(await signedOut.text()).not.toContain("Cachey");
  });

  it("leaves private pages, other cookies of ours and other methods alone", async () => {
    for (const path of ["/my-gigs", "/my-leads", "/account", "/post-gig", "/auth", "/sitemap.xml"]) {
      expect(cacheState(await visitor().get(path)), path).toBeNull();
    }
    const flashed = new SessionClient(app);
    flashed.cookies.set("dg_flash", "anything");
    expect(cacheState(await flashed.get("/browse-diggers"))).toBeNull();
    expect(cacheState(await app.request("/browse-diggers", { method: "HEAD" }))).toBeNull();
  });

  it("expires pages after PAGE_CACHE_SECONDS", async () => {
    const path = `/browse-diggers?q=${randomUUID()}`;
    expect(cacheState(await visitor().get(path))).toBe("miss");
    expect(cacheState(await visitor().get(path))).toBe("hit");
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(cacheState(await visitor().get(path))).toBe("miss");
  });
});

describe("without PAGE_CACHE_SECONDS in local mode", () => {
  it("renders every request", async () => {
    const local = await createTestApp();
    try {
      expect(local.config.pageCacheSeconds).toBe(0);
      await local.request("/browse-gigs");
      expect(cacheState(await local.request("/browse-gigs"))).toBeNull();
    } finally {
      await local.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("across two servers (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  let serverA: TestApp;
  let serverB: TestApp;
  let poster: TestUser;
  let categoryOfA: string;

  /**
   * The page cache listeners of this test database, as PostgreSQL sees them: their LISTEN done
   * (their last statement is it, or a NOTIFY, which a listener sends only once listening).
   */
  const listenerPids = async () =>
    (
      await queryRows<{ pid: number }>(
        serverA.database.db,
        sql`select pid from pg_stat_activity where datname = current_database() and application_name = ${PAGE_CACHE_LISTENER_NAME}
              and state = 'idle' and (query ilike 'LISTEN%' or query ilike '%pg_notify%')`,
      )
    ).map((row) => row.pid);

  beforeAll(async () => {
    serverA = await createTestApp({ PAGE_CACHE_SECONDS: "60" });
    serverB = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { database: serverA.database });
    poster = await signUpAs(serverA, "consumer", "Pat Poster");
    categoryOfA = await aTopCategory(serverA);
    await vi.waitFor(async () => expect(await listenerPids()).toHaveLength(2), { timeout: 5_000 });
  });
  afterAll(async () => {
    await serverB?.close();
    await serverA?.close();
  });

  /** B serves /browse-gigs from its cache; a gig posted through A shows on B within a second. */
  async function expectWriteOnAToReachB() {
    await vi.waitFor(async () => {
      await serverB.request("/browse-gigs");
      expect(cacheState(await serverB.request("/browse-gigs"))).toBe("hit");
    });
    const title = `Gig from server A ${randomUUID().slice(0, 8)}`;
    expect(await (await serverB.request("/browse-gigs")).text()).not.toContain(title);
    await postGig(title, poster, categoryOfA);
    await vi.waitFor(
      async () => {
        const page = await serverB.request("/browse-gigs");
        expect(cacheState(page)).toBe("miss");
        expect(await page.text()).toContain(title);
      },
      { timeout: 1_000, interval: 20 },
    );
  }

  it("a write on one server empties the other's cache within a second", async () => {
    await expectWriteOnAToReachB();
  });

  it("listens again after its connection is cut, emptying its cache as it may have missed changes", async () => {
    const path = `/browse-diggers?q=${randomUUID()}`;
    await serverB.request(path);
    expect(cacheState(await serverB.request(path))).toBe("hit");
    const cut = (
      await queryRows<{ pid: number; terminated: boolean }>(
        serverA.database.db,
        sql`select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity
              where datname = current_database() and application_name = ${PAGE_CACHE_LISTENER_NAME}`,
      )
    ).map((row) => (expect(row.terminated).toBe(true), row.pid));
    expect(cut).toHaveLength(2);
    await vi.waitFor(
      async () => {
        const pids = await listenerPids();
        expect(pids).toHaveLength(2);
        expect(pids.filter((pid) => cut.includes(pid))).toEqual([]);
      },
      { timeout: 10_000, interval: 50 },
    );
    await vi.waitFor(async () => expect(cacheState(await serverB.request(path))).toBe("miss"));
    await expectWriteOnAToReachB();
  });
});
