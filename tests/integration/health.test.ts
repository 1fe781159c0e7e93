/**
 * Liveness and readiness (docs/decisions/0016-health-and-metrics.md): `/healthz` answers
 * without the database, `/readyz` only when the database answers, and a server process
 * answers both from its first moment, "migrating" until its migrations are done.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { MIGRATION_LOCK_ID } from "../../server/db/prepare.ts";
import { READY_TIMEOUT_MS, startingApp } from "../../server/health.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { brokenServer, refusedDatabaseUrl } from "../support/away-database.ts";
import { createTestDatabase } from "../support/database.ts";
import { freePort } from "../support/ports.ts";
import { startServerProcess, waitForReady } from "../support/server-process.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** Runs `check` with the app's database replaced by one at `url` (a broken server's is closed first). */
async function withDatabaseAt(at: string | { url: string; close(): void }, check: () => Promise<void>) {
  const db = app.services.db;
  // A connection timeout far above readiness's own.
  const away = await openDatabase({ kind: "postgres", url: typeof at === "string" ? at : at.url, connectTimeoutMs: 30_000 });
  app.services.db = away.db;
  try {
    await check();
  } finally {
    app.services.db = db;
    if (typeof at !== "string") at.close();
    await away.close();
  }
}

describe("/healthz and /readyz", () => {
  it("are both 200 while the database answers; neither is cached", async () => {
    const health = await app.request("/healthz");
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    const ready = await app.request("/readyz");
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
    expect(ready.headers.get("cache-control")).toBe("no-store");
  });

  it("while the database is away: /healthz 200, /readyz 503 'database unavailable' with Retry-After, then 200 again", async () => {
    await withDatabaseAt(await refusedDatabaseUrl(), async () => {
      expect((await app.request("/healthz")).status).toBe(200);
      const ready = await app.request("/readyz");
      expect([ready.status, await ready.json()]).toEqual([503, { status: "unavailable", reason: "database unavailable" }]);
      expect(ready.headers.get("retry-after")).toBe("5");
    });
    expect((await app.request("/readyz")).status).toBe(200);
  });

  it("/readyz gives up on a database that never answers after its short timeout, not the pool's", async () => {
    await withDatabaseAt(await brokenServer("silent"), async () => {
      const started = performance.now();
      const [first, second] = await Promise.all([app.request("/readyz"), app.request("/readyz")]);
      const ms = performance.now() - started;
      expect([first.status, second.status]).toEqual([503, 503]);
      expect(ms).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(READY_TIMEOUT_MS + 5_000);
    });
  });

  it("while starting: /healthz 200, /readyz 503 with the reason, everything else 503 with Retry-After", async () => {
    let reason: "migrating" | "starting" = "migrating";
    const starting = startingApp(() => reason);
    expect((await starting.request("/healthz")).status).toBe(200);
    const ready = await starting.request("/readyz");
    expect([ready.status, await ready.json()]).toEqual([503, { status: "unavailable", reason: "migrating" }]);
    reason = "starting";
    expect(await (await starting.request("/readyz")).json()).toEqual({ status: "unavailable", reason: "starting" });
    for (const [method, path] of [["GET", "/browse-gigs"], ["POST", "/auth"], ["GET", "/metrics"]] as const) {
      const response = await starting.request(path, { method });
      expect([path, response.status, response.headers.get("retry-after")]).toEqual([path, 503, "5"]);
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("a server process while it migrates (PostgreSQL)", () => {
  it("is alive and answers 503 'migrating' until another process lets go of the migration lock, then serves", async () => {
    const database = await createTestDatabase({ prefix: "dg_migrating", migrated: false });
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-migrating-"));
    if (database.driver.kind !== "postgres") throw new Error("a PostgreSQL test database");
    // Standing in for another server that is migrating this database.
    const other = await database.driver.pool.connect();
    await other.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServerProcess({ DATABASE_URL: database.url!, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" });
    try {
      const deadline = Date.now() + 30_000;
      while (!server.output().includes("another process is migrating the database")) {
        if (server.child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not wait:\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const ready = await fetch(`${url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: "unavailable", reason: "migrating" }]);
      expect(ready.headers.get("retry-after")).toBe("5");
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const page = await fetch(`${url}/browse-gigs`);
      expect([page.status, page.headers.get("retry-after")]).toEqual([503, "5"]);
      // Nothing was migrated meanwhile.
      expect((await other.query("select to_regclass('public.gigs') as t")).rows[0].t).toBeNull();

      await other.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
      await waitForReady(url, server);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      expect((await fetch(`${url}/browse-gigs`)).status).toBe(200);
    } finally {
      other.release();
      server.child.kill("SIGTERM");
      await server.exited;
      await database.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
