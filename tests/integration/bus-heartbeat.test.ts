/**
 * The bus's heartbeat (server/bus.ts, decision 0056): a LISTEN connection that dies without a
 * word is found out within the heartbeat's interval and deadline. Between the server and
 * PostgreSQL stands a TCP forwarder that can freeze (bytes stop, nothing closes: a partition or
 * a NAT that dropped the flow), so this is PostgreSQL only; the embedded PGlite listens in the
 * process and has no connection to lose.
 */
import { eq } from "drizzle-orm";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createBus } from "../../server/bus.ts";
import { sessions, users } from "../../server/db/schema.ts";
import { seedCategories } from "../../server/db/seed/index.ts";
import { deleteSessionsUnheard, signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { location } from "../support/session-client.ts";
import { startTcpForwarder, type TcpForwarder } from "../support/tcp-forwarder.ts";

const { Pool } = pg;
const HEARTBEAT_SECONDS = 1;
const TIMEOUT_SECONDS = 2;

describe.skipIf(!process.env.TEST_DATABASE_URL)("the bus's heartbeat (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  let database: TestDatabase;
  let forwarder: TcpForwarder;
  let app: TestApp;
  let throughForwarder: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedCategories(database.db);
    if (database.driver.kind !== "postgres") throw new Error("PostgreSQL expected");
    forwarder = await startTcpForwarder(database.driver.url);
    // The pool stays direct; what opens connections by URL (the bus's listener, the job
    // queue's pool) goes through the forwarder.
    throughForwarder = { ...database, driver: { ...database.driver, url: forwarder.url } };
    app = await createTestApp(
      { BUS_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS), BUS_HEARTBEAT_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
      { database: throughForwarder },
    );
    await vi.waitFor(() => expect(app.services.bus.listening).toBe(true), { timeout: 10_000 });
  });
  afterAll(async () => {
    forwarder?.thaw();
    await app?.close();
    await forwarder?.close();
    await database?.destroy();
  });

  it("stays listening while it hears its heartbeats", async () => {
    const losses = () => app.logs.filter((line) => line.msg === "bus listener lost; reconnecting").length;
    await new Promise((resolve) => setTimeout(resolve, (HEARTBEAT_SECONDS + TIMEOUT_SECONDS) * 1000 * 2));
    expect(app.services.bus.listening).toBe(true);
    expect(losses()).toBe(0);
  });

  it("stops listening when its connection goes silent, trusts no cookie then, and listens again once the link is back", async () => {
    const user = await signUpAs(app, "consumer", "Fay Frozen");
    expect((await user.client.get("/account")).status).toBe(200);
    expect(user.client.cookies.get("dg.session_data")).toBeTruthy();

    forwarder.freeze();
    const frozenAt = Date.now();
    // Revoked meanwhile: the trigger's notice goes out, and the frozen connection never brings it.
    await app.database.db.delete(sessions).where(eq(sessions.userId, user.id));
    await vi.waitFor(() => expect(app.services.bus.listening).toBe(false), {
      timeout: (HEARTBEAT_SECONDS + TIMEOUT_SECONDS) * 1000 + 3_000,
      interval: 50,
    });
    // Within one interval and one deadline (and the timers' lateness on a busy machine).
    expect(Date.now() - frozenAt).toBeLessThan((HEARTBEAT_SECONDS + TIMEOUT_SECONDS) * 1000 + 3_000);
    const lost = app.logs.find((line) => line.msg === "bus listener lost; reconnecting");
    expect((lost?.err as { message?: string } | undefined)?.message).toBe(`bus heartbeat not heard within ${TIMEOUT_SECONDS * 1000} ms`);
    // The cookie is no longer trusted: the session is read from the database, where it is gone.
    const revoked = await user.client.get("/account");
    expect(revoked.status).toBe(302);
    expect(location(revoked)).toBe("/auth?redirect=%2Faccount");
    // Still frozen: the new connection cannot open.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(app.services.bus.listening).toBe(false);

    forwarder.thaw();
    await vi.waitFor(() => expect(app.services.bus.listening).toBe(true), { timeout: 15_000, interval: 50 });
    expect(app.logs.some((line) => line.msg === "bus listener back")).toBe(true);
    // A new cookie is trusted again (a session deleted behind the bus's back is still
    // honoured), and changes are heard again (a heard change ends that trust).
    const again = await signUpAs(app, "consumer", "Tom Thawed");
    expect((await again.client.get("/account")).status).toBe(200);
    await deleteSessionsUnheard(app, again.id);
    expect((await again.client.get("/account")).status).toBe(200);
    await app.database.db.update(users).set({ name: "Tom Heard" }).where(eq(users.id, again.id));
    await vi.waitFor(async () => expect((await again.client.get("/account")).status).toBe(302), { timeout: 5_000 });
  });

  it("takes no stall of its own event loop past the deadline for a silent connection", async () => {
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });
    const bus = createBus(throughForwarder.driver, logger, { heartbeatMs: HEARTBEAT_SECONDS * 1000, heartbeatTimeoutMs: TIMEOUT_SECONDS * 1000 });
    try {
      bus.subscribe("stall_test", { message: () => {} });
      await vi.waitFor(() => expect(bus.listening).toBe(true), { timeout: 10_000 });
      // Each stall outlasts the deadline while the heartbeat's notice arrives in the socket.
      for (let i = 0; i < 3; i += 1) {
        const until = Date.now() + TIMEOUT_SECONDS * 1000 + 500;
        while (Date.now() < until) {
          // busy: the event loop runs nothing
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(bus.listening).toBe(true);
      }
      expect(warnings).toEqual([]);
    } finally {
      await bus.close();
    }
  });

  it("takes no pool too busy to send its heartbeat for a silent connection: the deadline runs from the send", async () => {
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });
    // A pool of one connection, held by someone else for longer than two deadlines.
    const { url } = throughForwarder.driver as { url: string };
    const pool = new Pool({ connectionString: url, max: 1 });
    const bus = createBus({ kind: "postgres", pool, url }, logger, {
      heartbeatMs: HEARTBEAT_SECONDS * 1000,
      heartbeatTimeoutMs: TIMEOUT_SECONDS * 1000,
    });
    try {
      bus.subscribe("busy_pool_test", { message: () => {} });
      await vi.waitFor(() => expect(bus.listening).toBe(true), { timeout: 10_000 });
      const held = await pool.connect();
      await new Promise((resolve) => setTimeout(resolve, (HEARTBEAT_SECONDS + 2 * TIMEOUT_SECONDS) * 1000 + 500));
      expect(bus.listening).toBe(true);
      held.release();
      // The waiting beat goes out and is heard; the next ones too.
      await new Promise((resolve) => setTimeout(resolve, (HEARTBEAT_SECONDS + TIMEOUT_SECONDS) * 1000 + 500));
      expect(bus.listening).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      await bus.close();
      await pool.end();
    }
  });

  it("closes within the deadline when its connection is silent (its goodbye would never be answered)", async () => {
    const bus = createBus(throughForwarder.driver, pino({ level: "silent" }), {
      heartbeatMs: HEARTBEAT_SECONDS * 1000,
      heartbeatTimeoutMs: TIMEOUT_SECONDS * 1000,
    });
    bus.subscribe("closing_test", { message: () => {} });
    await vi.waitFor(() => expect(bus.listening).toBe(true), { timeout: 10_000 });
    forwarder.freeze();
    try {
      const started = Date.now();
      await bus.close();
      expect(Date.now() - started).toBeLessThan(TIMEOUT_SECONDS * 1000 + 2_000);
      expect(bus.listening).toBe(false);
    } finally {
      forwarder.thaw();
    }
  });
});
