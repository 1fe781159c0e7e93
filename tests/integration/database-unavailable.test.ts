/**
 * The database away: which driver errors mean it (server/db/errors.ts), read off real
 * failures against real sockets, and what visitors get then: the "try again" page as 503
 * with Retry-After, not 500. (The hard tests stop a real PostgreSQL server under load.)
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { isDatabaseUnavailable } from "../../server/db/errors.ts";
import { users } from "../../server/db/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { brokenServer, refusedDatabaseUrl } from "../support/away-database.ts";

async function errorOf(handle: DatabaseHandle): Promise<unknown> {
  try {
    await handle.db.execute(sql`select 1`);
  } catch (error) {
    return error;
  }
  throw new Error("the query answered");
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("isDatabaseUnavailable", () => {
  it("is true for a refused connection, a server that hangs up, and one that never answers", async () => {
    const refused = await openDatabase({ kind: "postgres", url: await refusedDatabaseUrl() });
    const hangUp = await brokenServer("hang-up");
    const silent = await brokenServer("silent");
    const closing = await openDatabase({ kind: "postgres", url: hangUp.url });
    const frozen = await openDatabase({ kind: "postgres", url: silent.url, connectTimeoutMs: 300 });
    try {
      for (const handle of [refused, closing, frozen]) expect(isDatabaseUnavailable(await errorOf(handle))).toBe(true);
    } finally {
      await Promise.all([refused.close(), closing.close(), frozen.close()]);
      hangUp.close();
      silent.close();
    }
  });

  it("is false for a query that fails on a database that answers", async () => {
    const db = app.database.db;
    const syntax = await db.execute(sql`select from nowhere`).then(() => null, (error: unknown) => error);
    expect(syntax).not.toBeNull();
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    const row = { id: randomUUID(), name: "Twice", email: `twice-${randomUUID()}@example.com` };
    await db.insert(users).values(row);
    const duplicate = await db.insert(users).values({ ...row, id: randomUUID() }).then(() => null, (error: unknown) => error);
    expect(duplicate).not.toBeNull();
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(new Error("something else"))).toBe(false);
  });
});

describe("pages while the database is away", () => {
  it("answer 503 with Retry-After and the try-again page, then 200 once it is back", async () => {
    const db = app.services.db;
    const away = await openDatabase({ kind: "postgres", url: await refusedDatabaseUrl() });
    app.services.db = away.db;
    try {
      for (const path of ["/browse-gigs", "/browse-diggers?q=roof", "/browse-gigs.data"]) {
        const response = await app.request(path);
        expect(response.status, path).toBe(503);
        expect(response.headers.get("retry-after"), path).toBe("5");
        // A data request carries the error for the page's error boundary to show.
        if (!path.includes(".data")) expect(await response.text(), path).toContain("Please try again in a moment.");
      }
      // A page that needs no database is not affected.
      expect((await app.request("/how-it-works")).status).toBe(200);
    } finally {
      app.services.db = db;
      await away.close();
    }
    expect((await app.request("/browse-gigs")).status).toBe(200);
  });
});
