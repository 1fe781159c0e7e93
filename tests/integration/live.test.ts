/**
 * The live stream (issue 32, "Live"; server/live/, docs/decisions/0040-live-updates.md):
 * GET /messages/live is signed-in users' own events as Server-Sent Events, published in a
 * transaction and delivered at its commit only; a reconnect (Last-Event-ID) or a page older
 * than an event gets `resync`; a session that ends ends its stream; shutdown ends them all;
 * the stream stays out of the latency metrics. On PostgreSQL (TEST_DATABASE_URL): two servers
 * on one database, a publish on one reaching a stream held on the other, through one LISTEN
 * connection per process however many streams are open, and a resync when that connection
 * comes back after a cut.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIVE_PATH, type LiveEvent } from "../../core/live-events.ts";
import { LISTENER_NAME } from "../../server/bus.ts";
import { queryRows } from "../../server/db/client.ts";
import { sessions } from "../../server/db/schema.ts";
import { STREAMS_PER_USER } from "../../server/live/hub.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { freePort } from "../support/ports.ts";
import { startServerProcess, waitForReady } from "../support/server-process.ts";
import { SessionClient } from "../support/session-client.ts";
import { SseParser, SseStream } from "../support/sse.ts";

let app: TestApp;
let alice: TestUser;
let bob: TestUser;
/** When the first app listened: a page read before it (and a clock skew after) cannot know what it missed. */
let listeningAt: number;
const open: SseStream[] = [];

beforeAll(async () => {
  app = await createTestApp({ LIVE_HEARTBEAT_SECONDS: "1" });
  listeningAt = Date.now();
  [alice, bob] = await Promise.all([signUpAs(app, "consumer", "Alice Live"), signUpAs(app, "digger", "Bob Live")]);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.cancel()));
  await app.close();
});

const thread = (): Extract<LiveEvent, { kind: "thread" }> => ({ kind: "thread", threadId: randomUUID() });
const threadIds = (stream: SseStream) => stream.named("thread").map((e) => (JSON.parse(e.data) as { threadId: string }).threadId);

/** Opens a stream as this client and waits for its `ready`. */
async function openStream(server: TestApp, user: TestUser, headers: Record<string, string> = {}, query = ""): Promise<SseStream> {
  const response = await server.request(`${LIVE_PATH}${query}`, { headers: { cookie: user.client.cookieHeader(), ...headers } });
  expect(response.status).toBe(200);
  const stream = new SseStream(response);
  open.push(stream);
  await vi.waitFor(() => expect(stream.named("ready")).toHaveLength(1));
  return stream;
}

const publish = (server: TestApp, userIds: string[], event: LiveEvent) =>
  server.services.db.transaction((tx) => server.services.live.publish(tx, userIds, event));

describe("GET /messages/live", () => {
  it("answers 401 to a visitor and to a session that is not one", async () => {
    expect((await app.request(LIVE_PATH)).status).toBe(401);
    const forged = new SessionClient(app);
    forged.cookies.set("dg.session_token", "forged.token");
    const response = await forged.get(LIVE_PATH);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("Please sign in to continue");
  });

  it("is an event stream that no cache keeps and nothing compresses", async () => {
    const response = await app.request(LIVE_PATH, { headers: { cookie: alice.client.cookieHeader(), "accept-encoding": "gzip" } });
    const stream = new SseStream(response);
    open.push(stream);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("x-page-cache")).toBeNull();
    await vi.waitFor(() => expect(stream.named("ready")).toHaveLength(1));
    expect(stream.retry).toBeGreaterThanOrEqual(1_000);
    await stream.cancel();
    await vi.waitFor(() => expect(app.services.live.size).toBe(0));
    // A HEAD opens nothing that nobody would read.
    const head = await app.request(LIVE_PATH, { method: "HEAD", headers: { cookie: alice.client.cookieHeader() } });
    expect(head.status).toBe(200);
    expect(app.services.live.size).toBe(0);
  });

  it("carries a user's own events, each with an id, and never another user's", async () => {
    const aliceStream = await openStream(app, alice);
    const bobStream = await openStream(app, bob);
    const forAlice = thread();
    const forBob = thread();
    const forBoth = thread();
    await publish(app, [alice.id], forAlice);
    await publish(app, [bob.id], forBob);
    await publish(app, [alice.id, bob.id], forBoth);
    await vi.waitFor(() => expect(threadIds(aliceStream)).toEqual([forAlice.threadId, forBoth.threadId]));
    await vi.waitFor(() => expect(threadIds(bobStream)).toEqual([forBob.threadId, forBoth.threadId]));
    const ids = aliceStream.events.map((e) => e.id);
    expect(ids.every((id) => id && /^\d+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Nothing but the thread's id.
    expect(aliceStream.named("thread")[0]!.data).toBe(JSON.stringify({ threadId: forAlice.threadId }));
    await Promise.all([aliceStream.cancel(), bobStream.cancel()]);
  });

  it("delivers an event at its transaction's commit, and never one of a rolled-back transaction", async () => {
    const stream = await openStream(app, alice);
    const rolledBack = thread();
    await expect(
      app.services.db.transaction(async (tx) => {
        await app.services.live.publish(tx, [alice.id], rolledBack);
        throw new Error("the write fails");
      }),
    ).rejects.toThrow("the write fails");
    const committed = thread();
    let seenBeforeCommit: string[] = [];
    await app.services.db.transaction(async (tx) => {
      await app.services.live.publish(tx, [alice.id], committed);
      await new Promise((resolve) => setTimeout(resolve, 100));
      seenBeforeCommit = threadIds(stream);
    });
    expect(seenBeforeCommit).toEqual([]);
    await vi.waitFor(() => expect(threadIds(stream)).toEqual([committed.threadId]));
    await stream.cancel();
  });

  it("publishes to many users in notices that each fit NOTIFY's limit", async () => {
    const stream = await openStream(app, bob);
    const event = thread();
    const many = [...Array.from({ length: 600 }, () => randomUUID()), bob.id];
    await publish(app, many, event);
    await vi.waitFor(() => expect(threadIds(stream)).toEqual([event.threadId]));
    await stream.cancel();
  });

  it("tells a browser that reconnects (Last-Event-ID) to resync, as it may have missed events", async () => {
    const stream = await openStream(app, alice, { "last-event-id": "41" });
    await vi.waitFor(() => expect(stream.events.map((e) => e.event)).toEqual(["ready", "resync"]));
    const garbage = await openStream(app, alice, { "last-event-id": "\u00ff<script>" });
    await vi.waitFor(() => expect(garbage.named("resync")).toHaveLength(1));
    await Promise.all([stream.cancel(), garbage.cancel()]);
  });

  it("tells a page whose data is older than an event for its user to resync, and leaves a newer page alone", async () => {
    // A page read before the server had listened long enough cannot know: it resyncs.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, listeningAt + 2_500 - Date.now())));
    const carol = await signUpAs(app, "consumer", "Carol Since");
    const pageRead = Date.now();
    const fresh = await openStream(app, carol, {}, `?since=${pageRead}`);
    const marker = thread();
    await publish(app, [carol.id], marker);
    await vi.waitFor(() => expect(fresh.events.map((e) => e.event)).toEqual(["ready", "thread"]));

    // An event between the page's read and the stream's start: the page missed it.
    const stale = await openStream(app, carol, {}, `?since=${pageRead}`);
    await vi.waitFor(() => expect(stale.events.map((e) => e.event)).toEqual(["ready", "resync"]));
    const ancient = await openStream(app, alice, {}, `?since=${Date.now() - 3_600_000}`);
    await vi.waitFor(() => expect(ancient.events.map((e) => e.event)).toEqual(["ready", "resync"]));
    await Promise.all([fresh.cancel(), stale.cancel(), ancient.cancel()]);
  }, 20_000);

  it(`lets one account hold ${STREAMS_PER_USER} streams in a process, not more`, async () => {
    const user = await signUpAs(app, "consumer", "Tabby Tabs");
    const streams = await Promise.all(Array.from({ length: STREAMS_PER_USER }, () => openStream(app, user)));
    const refused = await app.request(LIVE_PATH, { headers: { cookie: user.client.cookieHeader() } });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("close another tab");
    // Another account is not held back by it.
    const other = await openStream(app, alice);
    await streams[0]!.cancel();
    await vi.waitFor(async () => {
      const again = await app.request(LIVE_PATH, { headers: { cookie: user.client.cookieHeader() } });
      expect(again.status).toBe(200);
      open.push(new SseStream(again));
    });
    await Promise.all([...streams, other].map((s) => s.cancel()));
  });

  it("holds at most LIVE_MAX_STREAMS in a process, all accounts together (503 past it, then taken again when one closes)", async () => {
    const server = await createTestApp({ LIVE_MAX_STREAMS: "3" }, { database: app.database });
    try {
      const streams = [await openStream(server, alice), await openStream(server, alice), await openStream(server, bob)];
      const busy = await server.request(LIVE_PATH, { headers: { cookie: bob.client.cookieHeader() } });
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("10");
      expect(await busy.text()).toContain("Live updates are busy on this server");
      expect(server.services.live.size).toBe(3);
      // One closes: the next is taken.
      await streams[0]!.cancel();
      await vi.waitFor(async () => {
        const again = await server.request(LIVE_PATH, { headers: { cookie: bob.client.cookieHeader() } });
        expect(again.status).toBe(200);
        streams.push(new SseStream(again));
      });
      await Promise.all(streams.map((s) => s.cancel()));
    } finally {
      await server.close();
    }
  });

  it("sends heartbeats, and ends the stream of a session that ended (signed out, revoked, suspended)", async () => {
    const user = await signUpAs(app, "digger", "Sue Spended");
    const stream = await openStream(app, user);
    await vi.waitFor(() => expect(stream.comments).toBeGreaterThanOrEqual(1), { timeout: 3_000 });
    // A suspension or "sign out everywhere" deletes the account's sessions.
    await app.services.db.delete(sessions).where(eq(sessions.userId, user.id));
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 5_000 });
  });

  it("is left out of the request latency metrics, and counted as open streams", async () => {
    const stream = await openStream(app, alice);
    const metrics = await (await app.request("/metrics")).text();
    expect(metrics).toMatch(/^live_streams [1-9]/m);
    expect(metrics).not.toContain(LIVE_PATH);
    await stream.cancel();
  });
});

describe("shutdown", () => {
  it("ends every open stream and refuses new ones (in-process)", async () => {
    const server = await createTestApp({}, { database: app.database });
    const streams = [await openStream(server, alice), await openStream(server, bob)];
    expect(server.services.live.size).toBe(2);
    server.services.live.closeAll();
    await Promise.all(streams.map((s) => s.ended));
    expect(server.services.live.size).toBe(0);
    const refused = await server.request(LIVE_PATH, { headers: { cookie: alice.client.cookieHeader() } });
    expect(refused.status).toBe(503);
    await server.close();
  });

  it("SIGTERM ends the server's open streams cleanly, and the process exits", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-live-"));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url });
    try {
      await waitForReady(url, server, 150_000);
      const signIn = await fetch(`${url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ name: "Shut Down", email: `shutdown-${randomUUID()}@example.com`, password: "correct-horse", userType: "consumer", ageConfirmed: true }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const parser = new SseParser();
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(`${url}${LIVE_PATH}`, { headers: { cookie } }, resolve);
        req.on("error", reject);
        req.end();
      });
      expect(response.statusCode, server.output().slice(-2_000)).toBe(200);
      response.on("data", (chunk: Buffer) => parser.feed(chunk));
      const ended = new Promise<"end" | "aborted">((done) => {
        response.on("end", () => done("end"));
        response.on("aborted", () => done("aborted"));
        response.on("error", () => done("aborted"));
      });
      await vi.waitFor(() => expect(parser.events.map((e) => e.event)).toEqual(["ready"]));
      server.child.kill("SIGTERM");
      expect(await ended).toBe("end");
      expect(await server.exited).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("across two servers on one PostgreSQL database (set TEST_DATABASE_URL)", () => {
  let serverA: TestApp;
  let serverB: TestApp;

  /** The bus's listening connections of this test database, LISTEN done. */
  const listeners = async () =>
    (
      await queryRows<{ pid: number }>(
        serverA.database.db,
        sql`select pid from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_NAME}
              and state = 'idle' and (query ilike 'LISTEN%' or query ilike '%pg_notify%')`,
      )
    ).map((row) => row.pid);

  beforeAll(async () => {
    // The page cache on too: both channels share the one connection.
    serverA = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { database: app.database });
    serverB = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { database: app.database });
    await serverA.request("/browse-gigs");
    await serverB.request("/browse-gigs");
  });
  afterAll(async () => {
    await serverB?.close();
    await serverA?.close();
  });

  it("a publish on server A reaches a stream held on server B, and B's own streams only of that user", async () => {
    const onB = await openStream(serverB, alice);
    const bobOnB = await openStream(serverB, bob);
    const event = thread();
    await publish(serverA, [alice.id], event);
    await vi.waitFor(() => expect(threadIds(onB)).toEqual([event.threadId]));
    expect(threadIds(bobOnB)).toEqual([]);
    await Promise.all([onB.cancel(), bobOnB.cancel()]);
  });

  it("listens on one connection per process, however many streams are open", async () => {
    // The first app of the file, A and B: three processes' worth of apps.
    await vi.waitFor(async () => expect(await listeners()).toHaveLength(3), { timeout: 5_000 });
    const users = await Promise.all(Array.from({ length: 4 }, (_, i) => signUpAs(serverA, "consumer", `Many Streams ${i}`)));
    const streams = await Promise.all(users.flatMap((user) => [openStream(serverA, user), openStream(serverB, user), openStream(serverB, user)]));
    expect(streams).toHaveLength(12);
    expect(await listeners()).toHaveLength(3);
    await Promise.all(streams.map((s) => s.cancel()));
  });

  it("tells every open stream to resync when its listening connection comes back after a cut", async () => {
    const stream = await openStream(serverB, bob);
    await vi.waitFor(async () => expect(await listeners()).toHaveLength(3), { timeout: 5_000 });
    const cut = (
      await queryRows<{ pid: number; terminated: boolean }>(
        serverA.database.db,
        sql`select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity
              where datname = current_database() and application_name = ${LISTENER_NAME}`,
      )
    ).map((row) => (expect(row.terminated).toBe(true), row.pid));
    expect(cut).toHaveLength(3);
    await vi.waitFor(() => expect(stream.named("resync")).toHaveLength(1), { timeout: 10_000 });
    // And it hears events again.
    const event = thread();
    await publish(serverA, [bob.id], event);
    await vi.waitFor(() => expect(threadIds(stream)).toEqual([event.threadId]));
    await stream.cancel();
  });
});
