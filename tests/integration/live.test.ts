/**
 * The live stream (issue 32, "Live"; server/live/, docs/decisions/0040-live-updates.md):
 * GET /messages/live is signed-in users' own events as Server-Sent Events, published in a
 * transaction and delivered at its commit only; a reconnect (Last-Event-ID) or a page older
 * than an event gets `resync`; a session that ends ends its stream; shutdown ends them all;
 * the stream stays out of the latency metrics. Issue 45: only accounts with a confirmed e-mail
 * and a thread hold streams (204 for the others); a full network or process closes the oldest
 * stream of whoever holds the most instead of refusing the newcomer; event ids are counted per
 * stream. On PostgreSQL (TEST_DATABASE_URL): two servers
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
import { readInbox } from "../../server/conversations/inbox.ts";
import { queryRows } from "../../server/db/client.ts";
import { sessions } from "../../server/db/schema.ts";
import { STREAMS_PER_USER } from "../../server/live/hub.ts";
import { publishLive } from "../../server/live/publish.ts";
import { encodeCursor } from "../../server/pagination.ts";
import { readerTime } from "../../server/reader-time.ts";
import { DEMO_DIGGER, DEMO_PASSWORD } from "../../server/db/seed/index.ts";
import { changeUser, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { busCaughtUp } from "../support/bus.ts";
import { boughtLead } from "../support/leads.ts";
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

/** An account that may hold streams: e-mail confirmed (as signUpAs makes them), and the client of a thread. */
const liveUser = async (server: TestApp, name: string) => (await boughtLead(server, { clientName: name })).client;

beforeAll(async () => {
  app = await createTestApp({ LIVE_HEARTBEAT_SECONDS: "1" });
  listeningAt = Date.now();
  ({ client: alice, digger: bob } = await boughtLead(app, { clientName: "Alice Live" }));
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.cancel()));
  await app.close();
});

const thread = (): Extract<LiveEvent, { kind: "thread" }> => ({ kind: "thread", threadId: randomUUID() });
const threadIds = (stream: SseStream) => stream.named("thread").map((e) => (JSON.parse(e.data) as { threadId: string }).threadId);

/** Opens a stream as this client (from `clientIp`, default loopback) and waits for its `ready`. */
async function openStream(server: TestApp, user: TestUser, headers: Record<string, string> = {}, query = "", clientIp?: string): Promise<SseStream> {
  const response = await server.request(`${LIVE_PATH}${query}`, { headers: { cookie: user.client.cookieHeader(), ...headers } }, clientIp);
  expect(response.status).toBe(200);
  const stream = new SseStream(response);
  open.push(stream);
  await vi.waitFor(() => expect(stream.named("ready")).toHaveLength(1));
  return stream;
}

const publish = (server: TestApp, userIds: string[], event: LiveEvent) =>
  server.services.db.transaction((tx) => publishLive(tx, userIds, event));

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
    expect(response.headers.get("cache-control")).toBe("private, no-store, no-transform");
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
    // Counted per stream: its ready is 1, its events 2 and 3.
    expect(aliceStream.events.map((e) => e.id)).toEqual(["1", "2", "3"]);
    // Nothing but the thread's id.
    expect(aliceStream.named("thread")[0]!.data).toBe(JSON.stringify({ threadId: forAlice.threadId }));
    await Promise.all([aliceStream.cancel(), bobStream.cancel()]);
  });

  it("delivers an event at its transaction's commit, and never one of a rolled-back transaction", async () => {
    const stream = await openStream(app, alice);
    const rolledBack = thread();
    await expect(
      app.services.db.transaction(async (tx) => {
        await publishLive(tx, [alice.id], rolledBack);
        throw new Error("the write fails");
      }),
    ).rejects.toThrow("the write fails");
    const committed = thread();
    let seenBeforeCommit: string[] = [];
    await app.services.db.transaction(async (tx) => {
      await publishLive(tx, [alice.id], committed);
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
    const carol = await liveUser(app, "Carol Since");
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
    const user = await liveUser(app, "Tabby Tabs");
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

  it("sends heartbeats, and ends the stream of a session that ended (signed out, revoked, suspended)", async () => {
    const user = await liveUser(app, "Sue Spended");
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

describe("event ids (issue 45)", () => {
  it("are counted per stream: one user's ids say nothing of another's events, and a reconnect with its Last-Event-ID still catches up", async () => {
    const aliceStream = await openStream(app, alice);
    const bobStream = await openStream(app, bob);
    for (let i = 0; i < 20; i += 1) await publish(app, [alice.id], thread());
    await vi.waitFor(() => expect(aliceStream.named("thread")).toHaveLength(20));
    const forBob = thread();
    await publish(app, [bob.id], forBob);
    await vi.waitFor(() => expect(threadIds(bobStream)).toEqual([forBob.threadId]));
    // Bob's stream is numbered by what it carried: 20 events to Alice (and any elsewhere) move nothing.
    expect(bobStream.events.map((e) => [e.event, e.id])).toEqual([
      ["ready", "1"],
      ["thread", "2"],
    ]);
    expect(aliceStream.events.at(-1)!.id).toBe("21");

    // Bob's page goes away; an event comes meanwhile; the browser comes back with the last id it saw.
    await bobStream.cancel();
    await publish(app, [bob.id], thread());
    // The event reaches the hub by a NOTIFY: heard before Bob comes back, or the new stream would
    // carry it instead of the resync (a loaded machine delayed it once).
    await busCaughtUp(app);
    const back = await openStream(app, bob, { "last-event-id": bobStream.events.at(-1)!.id! });
    // Told to resync: the page re-reads its data through its loader, the missed event with it.
    await vi.waitFor(() => expect(back.events.map((e) => e.event)).toEqual(["ready", "resync"]));
    const next = thread();
    await publish(app, [bob.id], next);
    await vi.waitFor(() => expect(threadIds(back)).toEqual([next.threadId]));
    expect(back.events.map((e) => e.id)).toEqual(["1", "2", "3"]);
    await Promise.all([aliceStream.cancel(), back.cancel()]);
  });
});

describe("who holds streams, and who makes room when they run out (issue 45)", () => {
  /** Whether the stream has ended, as the browser's reader sees it. */
  const endedFlag = (stream: SseStream) => {
    let ended = false;
    void stream.ended.then(() => (ended = true));
    return () => ended;
  };

  it("answers 204 (Server-Sent Events' do-not-reconnect), GET and HEAD alike, to an account without a confirmed e-mail or without a thread", async () => {
    const noThread = await signUpAs(app, "consumer", "Nora Nothread");
    const unconfirmed = await liveUser(app, "Una Unconfirmed");
    await changeUser(app, unconfirmed.id, { emailVerified: false });
    const before = app.services.live.size;
    for (const user of [noThread, unconfirmed]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await app.request(LIVE_PATH, { method, headers: { cookie: user.client.cookieHeader() } });
        expect(response.status, `${user.fullName} ${method}`).toBe(204);
        expect(response.headers.get("cache-control")).toBe("private, no-store");
        expect(await response.text()).toBe("");
      }
    }
    // Many such accounts open nothing at all.
    for (let i = 0; i < STREAMS_PER_USER + 1; i += 1) expect((await app.request(LIVE_PATH, { headers: { cookie: noThread.client.cookieHeader() } })).status).toBe(204);
    expect(app.services.live.size).toBe(before);
    // Confirmed again, with its thread: a stream.
    await changeUser(app, unconfirmed.id, { emailVerified: true });
    await (await openStream(app, unconfirmed)).cancel();
  });

  it("the inbox tells its page to open the stream by the same rule, on its page's own statement (issue 52)", async () => {
    const time = readerTime("UTC", { defaultTimeZone: "UTC" });
    const noThread = await signUpAs(app, "consumer", "Nadia Nothread");
    const talker = await liveUser(app, "Tara Talker");
    const inbox = (id: string, cursor: string | null = null) => readInbox(app.database.db, id, cursor, time);
    expect(await inbox(noThread.id)).toMatchObject({ live: false, page: { items: [] } });
    const first = await inbox(talker.id);
    expect(first.page.items).toHaveLength(1);
    expect(first.live).toBe(true);
    // Past the last page (no row to carry it), the rule is asked on its own.
    const past = encodeCursor(["2000-01-01T00:00:00.000000Z", randomUUID()]);
    expect(await inbox(talker.id, past)).toMatchObject({ live: true, page: { items: [] } });
    await changeUser(app, talker.id, { emailVerified: false });
    expect((await inbox(talker.id)).live).toBe(false);
    expect((await inbox(talker.id, past)).live).toBe(false);
  });

  it("past LIVE_MAX_STREAMS_PER_NETWORK from one network (/24), closes the oldest stream of the network's account holding the most, and admits the newcomer", async () => {
    const server = await createTestApp({ LIVE_MAX_STREAMS_PER_NETWORK: "3" }, { database: app.database });
    try {
      const [mallory, mallet] = await Promise.all([liveUser(server, "Mallory One"), liveUser(server, "Mallet Two")]);
      const first = await openStream(server, mallory, {}, "", "203.0.113.10");
      const firstEnded = endedFlag(first);
      const held = [first, await openStream(server, mallory, {}, "", "203.0.113.10"), await openStream(server, mallet, {}, "", "203.0.113.200")];
      const elsewhere = await openStream(server, alice, {}, "", "198.51.100.7");
      expect(server.services.live.size).toBe(4);
      // Another address of the same /24: Mallory (2 there) makes room, with her oldest.
      const newcomer = await openStream(server, bob, {}, "", "203.0.113.99");
      await vi.waitFor(() => expect(firstEnded()).toBe(true));
      // Told to come back later, not at once (it would close another straight away).
      expect(first.retry).toBeGreaterThanOrEqual(10_000);
      expect(server.services.live.size).toBe(4);
      const event = thread();
      await publish(server, [mallet.id, alice.id, bob.id], event);
      for (const stream of [held[2]!, elsewhere, newcomer]) await vi.waitFor(() => expect(threadIds(stream)).toEqual([event.threadId]));
      // Loopback in local mode is not counted (NETWORK_LIMITS_ON_LOOPBACK): one machine's many pages.
      const local = await Promise.all([mallory, mallet, mallory, mallet].map((user) => openStream(server, user)));
      expect(server.services.live.size).toBe(8);
      await Promise.all([...held, elsewhere, newcomer, ...local].map((s) => s.cancel()));
    } finally {
      await server.close();
    }
  });

  it("at LIVE_MAX_STREAMS, closes the oldest stream of the network holding the most, not the newcomer's and not the oldest of all", async () => {
    const server = await createTestApp({ LIVE_MAX_STREAMS: "4" }, { database: app.database });
    try {
      const [mallory, mallet] = await Promise.all([liveUser(server, "Mallory Three"), liveUser(server, "Mallet Four")]);
      const honest = await openStream(server, alice, {}, "", "198.51.100.7");
      const first = await openStream(server, mallory, {}, "", "203.0.113.10");
      const [honestEnded, firstEnded] = [endedFlag(honest), endedFlag(first)];
      const held = [first, await openStream(server, mallory, {}, "", "203.0.113.10"), await openStream(server, mallet, {}, "", "203.0.113.11")];
      expect(server.services.live.size).toBe(4);
      // Before the fix: 503 "Live updates are busy". Now the newcomer is in, and 203.0.113.0/24 (3) made room.
      const newcomer = await openStream(server, bob, {}, "", "192.0.2.5");
      await vi.waitFor(() => expect(firstEnded()).toBe(true));
      expect(honestEnded()).toBe(false);
      expect(server.services.live.size).toBe(4);
      await Promise.all([honest, ...held, newcomer].map((s) => s.cancel()));
    } finally {
      await server.close();
    }
  });

  it("at LIVE_MAX_STREAMS, closes the oldest stream of the account holding the most when it spreads over networks", async () => {
    const server = await createTestApp({ LIVE_MAX_STREAMS: "4" }, { database: app.database });
    try {
      const roamer = await liveUser(server, "Rita Roamer");
      const roaming = [await openStream(server, roamer, {}, "", "10.1.1.1"), await openStream(server, roamer, {}, "", "10.2.2.2"), await openStream(server, roamer, {}, "", "10.3.3.3")];
      const firstEnded = endedFlag(roaming[0]!);
      const honest = await openStream(server, alice, {}, "", "10.4.4.4");
      const newcomer = await openStream(server, bob, {}, "", "10.5.5.5");
      await vi.waitFor(() => expect(firstEnded()).toBe(true));
      const event = thread();
      await publish(server, [roamer.id, alice.id, bob.id], event);
      for (const stream of [roaming[1]!, roaming[2]!, honest, newcomer]) await vi.waitFor(() => expect(threadIds(stream)).toEqual([event.threadId]));
      expect(threadIds(roaming[0]!)).toEqual([]);
      await Promise.all([...roaming, honest, newcomer].map((s) => s.cancel()));
    } finally {
      await server.close();
    }
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
      // The demo digger (seeded in local mode): a confirmed account with threads.
      const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ email: DEMO_DIGGER.email, password: DEMO_PASSWORD }),
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
    const users = await Promise.all(Array.from({ length: 4 }, (_, i) => liveUser(serverA, `Many Streams ${i}`)));
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
