/**
 * Sends at once (issue 52, decision 0078): many sends to one thread by both parties each write
 * their message once, in one order (seq) the thread's counters follow, and each reaches both
 * parties' open streams once, at its commit. What the sender no longer waits for, the
 * `messages.tell` job, still happens once per message: the push to the recipient's device, and
 * one notice job per thread and recipient, 5 minutes after the message.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { LIVE_PATH } from "../../core/live-events.ts";
import { MESSAGE_TEXTS } from "../../core/messages.ts";
import { sweepUntoldMessages, tellOfMessage } from "../../server/conversations/push-notice.ts";
import { queryRows } from "../../server/db/client.ts";
import { MESSAGE_LIMITS } from "../../server/conversations/message-limits.ts";
import { sendMessage } from "../../server/conversations/send-message.ts";
import { blocks, messages, rateLimits, threads } from "../../server/db/schema.ts";
import { SCHEDULES } from "../../server/jobs/queue.ts";
import type { TestUser } from "../support/accounts.ts";
import type { TestApp } from "../support/app.ts";
import { jobOf, jobsSettled, makeJobDue } from "../support/jobs.ts";
import { someoneWaitsOnALock } from "../support/lock-waits.ts";
import { plan, recordingDb, type Statement } from "../support/query-plans.ts";
import { boughtLead } from "../support/leads.ts";
import { pushTestAppOfThisFile } from "../support/push-app.ts";
import { SseStream } from "../support/sse.ts";

const pushing = pushTestAppOfThisFile();
const app = (): TestApp => pushing.app;
const db = () => app().database.db;

const open: SseStream[] = [];
afterAll(() => Promise.all(open.map((s) => s.cancel())));

async function openStream(user: TestUser): Promise<SseStream> {
  const response = await app().request(LIVE_PATH, { headers: { cookie: user.client.cookieHeader() } });
  expect(response.status).toBe(200);
  const stream = new SseStream(response);
  open.push(stream);
  await vi.waitFor(() => expect(stream.named("ready")).toHaveLength(1));
  return stream;
}

const eventsOf = (stream: SseStream, threadId: string) =>
  stream.named("thread").filter((e) => (JSON.parse(e.data) as { threadId: string }).threadId === threadId).length;

/**
 * As the thread page's script posts it (`.data`: the action alone). The page's own reload after
 * it may mark the thread read, which the other party hears of ("thread.read"): not a send's.
 */
async function send(user: TestUser, threadId: string, body: string) {
  const response = await user.client.post(`/messages/${threadId}.data`, { intent: "send", body, js: "1" });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("sent");
}

/** The `messages.notify` jobs waiting for this thread and recipient, with the seconds until each may run. */
const noticeJobs = (threadId: string, userId: string) =>
  queryRows<{ wait_seconds: number }>(
    db(),
    sql`select extract(epoch from start_after - now())::float8 as wait_seconds from pgboss.job
        where name = 'messages.notify' and data->>'threadId' = ${threadId} and data->>'userId' = ${userId} and state = 'created'`,
  );

describe("sends at once", () => {
  it("write each message once, in the order of seq the thread follows, each reaching both parties' streams once", async () => {
    const lead = await boughtLead(app());
    const diggerStream = await openStream(lead.digger);
    const clientStream = await openStream(lead.client);
    // A first message, alone: once both streams heard of it, whatever committed before (the
    // purchase's own notices) has been heard too (one listening connection, commit order).
    await send(lead.digger, lead.threadId, "Before the others");
    await vi.waitFor(() => expect(eventsOf(diggerStream, lead.threadId)).toBeGreaterThanOrEqual(1));
    await vi.waitFor(() => expect(eventsOf(clientStream, lead.threadId)).toBeGreaterThanOrEqual(1));
    const diggerBefore = eventsOf(diggerStream, lead.threadId);
    const clientBefore = eventsOf(clientStream, lead.threadId);
    const bodies = Array.from({ length: 10 }, (_, n) => `Message ${n} at once`);
    await Promise.all(bodies.map((body, n) => send(n % 2 === 0 ? lead.digger : lead.client, lead.threadId, body)));

    const written = await db().select().from(messages).where(eq(messages.threadId, lead.threadId));
    expect(written.map((m) => m.body).sort()).toEqual(["Before the others", ...bodies].sort());
    expect(new Set(written.map((m) => m.seq)).size).toBe(11);
    const [thread] = await db().select().from(threads).where(eq(threads.id, lead.threadId));
    const last = Math.max(...written.map((m) => m.seq));
    expect(thread).toMatchObject({ lastMessageSeq: last, diggerMessages: 6, clientMessages: 5 });
    // Each sender's read mark is at their own last message at least.
    const lastOf = (senderId: string) => Math.max(...written.filter((m) => m.senderId === senderId).map((m) => m.seq));
    expect(thread!.diggerReadSeq).toBeGreaterThanOrEqual(lastOf(lead.digger.id));
    expect(thread!.clientReadSeq).toBeGreaterThanOrEqual(lastOf(lead.client.id));

    // One more, after the others committed: once it reached both streams, every earlier notice has too.
    await send(lead.client, lead.threadId, "The last one");
    await vi.waitFor(() => expect(eventsOf(diggerStream, lead.threadId)).toBeGreaterThanOrEqual(diggerBefore + 11));
    await vi.waitFor(() => expect(eventsOf(clientStream, lead.threadId)).toBeGreaterThanOrEqual(clientBefore + 11));
    expect(eventsOf(diggerStream, lead.threadId)).toBe(diggerBefore + 11);
    expect(eventsOf(clientStream, lead.threadId)).toBe(clientBefore + 11);
  });
});

describe("the sender's limits, counted in the send's transaction (decision 0084)", () => {
  /** The sender's two counts, as the `rate_limits` rows hold them. */
  async function counts(userId: string) {
    const rows = await db()
      .select()
      .from(rateLimits)
      .where(inArray(rateLimits.key, [`${MESSAGE_LIMITS.perMinute.key}:${userId}`, `${MESSAGE_LIMITS.perDay.key}:${userId}`]));
    const of = (key: string) => rows.find((row) => row.key === `${key}:${userId}`)?.points;
    return { minute: of(MESSAGE_LIMITS.perMinute.key), day: of(MESSAGE_LIMITS.perDay.key) };
  }
  const refused = (code: string, message: string) => ({ name: "AppError", code, message });

  it("counts each written message in the minute and the day; a send refused by either, or by a block, counts in neither", async () => {
    const lead = await boughtLead(app());
    const say = (body: string) => sendMessage(app().services, lead.digger.id, lead.threadId, { body });
    for (let n = 0; n < MESSAGE_LIMITS.perMinute.max; n++) await say(`Message ${n}`);
    expect(await counts(lead.digger.id)).toEqual({ minute: 30, day: 30 });
    await expect(say("One too many")).rejects.toMatchObject(refused("too_many_requests", MESSAGE_TEXTS.tooFast));
    expect(await counts(lead.digger.id)).toEqual({ minute: 30, day: 30 });

    // The minute's window ends: a new one starts at the next message, the day's goes on.
    await db().execute(sql`update rate_limits set expire = (extract(epoch from now()) * 1000)::bigint - 1 where key = ${`${MESSAGE_LIMITS.perMinute.key}:${lead.digger.id}`}`);
    await say("A minute later");
    expect(await counts(lead.digger.id)).toEqual({ minute: 1, day: 31 });

    // The day used up: refused with the same answer, and the minute's count stays as it was.
    await db().execute(sql`update rate_limits set points = ${MESSAGE_LIMITS.perDay.max} where key = ${`${MESSAGE_LIMITS.perDay.key}:${lead.digger.id}`}`);
    await expect(say("Over the day")).rejects.toMatchObject(refused("too_many_requests", MESSAGE_TEXTS.tooFast));
    expect(await counts(lead.digger.id)).toEqual({ minute: 1, day: 500 });

    // Refused for a block: nothing counted either (the client, whose limits are untouched so far).
    await db().insert(blocks).values({ blockerId: lead.digger.id, blockedId: lead.client.id });
    await expect(sendMessage(app().services, lead.client.id, lead.threadId, { body: "Hello?" })).rejects.toMatchObject(refused("forbidden", MESSAGE_TEXTS.notSent));
    expect(await counts(lead.client.id)).toEqual({ minute: undefined, day: undefined });
    const written = await db().select({ body: messages.body }).from(messages).where(eq(messages.threadId, lead.threadId));
    expect(written).toHaveLength(31);
  });

  it("lets through exactly the minute's 30 of one sender's sends at once", async () => {
    const lead = await boughtLead(app());
    const outcomes = await Promise.allSettled(
      Array.from({ length: 35 }, (_, n) => sendMessage(app().services, lead.digger.id, lead.threadId, { body: `At once ${n}` })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(30);
    expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason)).toEqual(
      Array.from({ length: 5 }, () => expect.objectContaining(refused("too_many_requests", MESSAGE_TEXTS.tooFast))),
    );
    expect(await counts(lead.digger.id)).toEqual({ minute: 30, day: 30 });
  });
});

describe("a block while a send waits for the thread", () => {
  it.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, a block committed while the send waited for the thread's lock refuses the message", async () => {
    const lead = await boughtLead(app());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const threadLocked = new Promise<void>((resolve) => (locked = resolve));
    // As block-other.ts does: the parties' threads locked, then the block written, in one transaction.
    const blocking = db().transaction(async (tx) => {
      await tx.execute(sql`select id from threads where id = ${lead.threadId} for update`);
      locked();
      await held;
      await tx.execute(sql`insert into blocks (blocker_id, blocked_id) values (${lead.client.id}, ${lead.digger.id})`);
    });
    await threadLocked;
    const sending = lead.digger.client.post(`/messages/${lead.threadId}.data`, { intent: "send", body: "Sent while the block was written", js: "1" });
    await someoneWaitsOnALock(db());
    release();
    await blocking;
    const response = await sending;
    expect(await response.text()).toContain(MESSAGE_TEXTS.notSent);
    expect(await db().select({ id: messages.id }).from(messages).where(eq(messages.threadId, lead.threadId))).toEqual([]);
  });
});

describe("the recipient told after the send (messages.tell)", () => {
  it("tells nobody of a message when a block came between the send and the job", async () => {
    const lead = await boughtLead(app());
    const phone = await pushing.deviceOf(lead.digger);
    await send(lead.client, lead.threadId, "Before the block");
    await jobsSettled(db(), "messages.tell");
    await jobsSettled(db(), "push.send");
    await vi.waitFor(() => expect(pushing.receivedBy(phone)).toHaveLength(1), { timeout: 30_000 });
    const [message] = await db().select({ id: messages.id }).from(messages).where(eq(messages.threadId, lead.threadId));
    // As if the job ran only after the digger blocked the client: its claim undone, the notice not yet scheduled.
    await db().update(messages).set({ toldAt: null }).where(eq(messages.id, message!.id));
    await db().execute(sql`delete from pgboss.job where name = 'messages.notify' and data->>'threadId' = ${lead.threadId}`);
    await db().execute(sql`update message_notices set pending = false where thread_id = ${lead.threadId}`);
    await db().execute(sql`insert into blocks (blocker_id, blocked_id) values (${lead.digger.id}, ${lead.client.id})`);
    expect(await tellOfMessage(app().services, message!.id)).toBe(true);
    expect(await tellOfMessage(app().services, message!.id)).toBe(false);
    await jobsSettled(db(), "push.send");
    expect(pushing.receivedBy(phone)).toHaveLength(1);
    expect(await noticeJobs(lead.threadId, lead.digger.id)).toEqual([]);
  });

  it("pushes each message once to the recipient's device and schedules one notice per recipient, 5 minutes after the message", async () => {
    const lead = await boughtLead(app());
    const phone = await pushing.deviceOf(lead.digger);
    await Promise.all(["One", "Two", "Three"].map((body) => send(lead.client, lead.threadId, body)));
    // Told before the digger answers: the answer reads the thread, and a job that ran after it
    // would rightly tell the digger of nothing (decision 0082).
    await jobsSettled(db(), "messages.tell");
    await send(lead.digger, lead.threadId, "Hello back");
    await jobsSettled(db(), "messages.tell");

    const written = await db().select({ id: messages.id, toldAt: messages.toldAt }).from(messages).where(eq(messages.threadId, lead.threadId));
    expect(written).toHaveLength(4);
    expect(written.every((m) => m.toldAt !== null)).toBe(true);
    // A job run again (a retry after its commit) tells nothing twice.
    expect(await tellOfMessage(app().services, written[0]!.id)).toBe(false);

    await jobsSettled(db(), "push.send");
    await vi.waitFor(() => expect(pushing.receivedBy(phone)).toHaveLength(3), { timeout: 30_000 });
    expect(pushing.receivedBy(phone).map((p) => p.message.body).sort()).toEqual(["One", "Three", "Two"].map((t) => `${lead.gig.title}: ${t}`).sort());
    expect(pushing.receivedBy(phone)[0]!.message.title).toBe("New message from Clara C.");

    const [toDigger, ...more] = await noticeJobs(lead.threadId, lead.digger.id);
    expect(more).toEqual([]);
    expect(toDigger!.wait_seconds).toBeGreaterThan(280);
    expect(toDigger!.wait_seconds).toBeLessThanOrEqual(300);
    expect(await noticeJobs(lead.threadId, lead.client.id)).toHaveLength(1);
  });

  it("schedules the notice 5 minutes after the message, not after the job that tells of it", async () => {
    const lead = await boughtLead(app());
    await send(lead.client, lead.threadId, "Sent a while ago");
    await jobsSettled(db(), "messages.tell");
    const [message] = await db().select({ id: messages.id }).from(messages).where(eq(messages.threadId, lead.threadId));
    // As if its job had run 2 minutes after the send: the claim is undone and the message dated back.
    await db().update(messages).set({ toldAt: null, createdAt: sql`now() - interval '2 minutes'` }).where(inArray(messages.id, [message!.id]));
    await db().execute(sql`delete from pgboss.job where name = 'messages.notify' and data->>'threadId' = ${lead.threadId}`);
    await db().execute(sql`update message_notices set pending = false where thread_id = ${lead.threadId}`);
    expect(await tellOfMessage(app().services, message!.id)).toBe(true);
    const [job] = await noticeJobs(lead.threadId, lead.digger.id);
    expect(job!.wait_seconds).toBeGreaterThan(170);
    expect(job!.wait_seconds).toBeLessThanOrEqual(180);
    expect(await db().select().from(messages).where(and(eq(messages.id, message!.id), sql`told_at is not null`))).toHaveLength(1);
  });
});

describe("the tell jobs' share of the request pool (decision 0082)", () => {
  it.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, runs at most 2 messages.tell jobs at once, whatever the fetch: a page still finds a connection", async () => {
    const lead = await boughtLead(app());
    for (const body of ["First", "Second", "Third", "Fourth"]) await send(lead.client, lead.threadId, body);
    await jobsSettled(db(), "messages.tell");
    const written = await db().select({ id: messages.id }).from(messages).where(eq(messages.threadId, lead.threadId));
    expect(written).toHaveLength(4);
    const waiting = async () =>
      (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`))[0]!.n;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const rowsLocked = new Promise<void>((resolve) => (locked = resolve));
    // Their claims undone, then their rows locked: each job's claim waits for the lock, holding its connection.
    await db().update(messages).set({ toldAt: null }).where(eq(messages.threadId, lead.threadId));
    const holding = db().transaction(async (tx) => {
      await tx.execute(sql`select id from messages where thread_id = ${lead.threadId} for update`);
      locked();
      await held;
    });
    await rowsLocked;
    try {
      // One statement: one fetch of the worker takes all four.
      await app().services.jobs.sendMany("messages.tell", written.map((m) => ({ messageId: m.id })));
      await vi.waitFor(async () => expect(await waiting()).toBe(2), { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await waiting()).toBe(2);
      // The pages still have connections (the tests' pool is 5: the lock's holder, 2 jobs, and 2 free).
      const inbox = await lead.client.client.get("/messages");
      expect(inbox.status).toBe(200);
    } finally {
      release();
      await holding;
    }
    await jobsSettled(db(), "messages.tell");
    expect(await db().select().from(messages).where(and(eq(messages.threadId, lead.threadId), sql`told_at is null`))).toEqual([]);
  });
});

describe("the sweep behind messages.tell (decision 0082)", () => {
  /** Makes the job's claim of a message whose text starts with `prefix` fail, as a database error would. */
  const failTellsOf = (prefix: string) =>
    db().execute(
      sql.raw(`create or replace function test_fail_tell() returns trigger language plpgsql as $$
        begin
          if old.told_at is null and new.told_at is not null and new.body like '${prefix}%' then raise exception 'telling made to fail'; end if;
          return new;
        end $$`),
    );
  const messageOf = async (threadId: string, body: string) => {
    const [row] = await db().select().from(messages).where(and(eq(messages.threadId, threadId), eq(messages.body, body)));
    return row!;
  };

  it("is scheduled every 5 minutes", async () => {
    expect(SCHEDULES["messages.tell-sweep"]).toBe("*/5 * * * *");
    const [schedule] = await queryRows<{ cron: string }>(db(), sql`select cron from pgboss.schedule where name = 'messages.tell-sweep'`);
    expect(schedule?.cron).toBe("*/5 * * * *");
  });

  it("tells once of a message whose job failed all its retries or is gone; never of one older than 6 hours, nor yet of one a minute old", async () => {
    const lead = await boughtLead(app());
    const phone = await pushing.deviceOf(lead.digger);
    await failTellsOf("Fails");
    await db().execute(sql`create trigger test_fail_tell before update on messages for each row execute function test_fail_tell()`);
    try {
      const failing = ["Fails: its job gives up", "Fails: its job is gone", "Fails: always", "Fails: a minute ago"];
      for (const body of failing) await send(lead.client, lead.threadId, body);
      // Each job failed once; with its retries spent, its next failure is its last.
      for (const body of failing) {
        const { id } = await messageOf(lead.threadId, body);
        await vi.waitFor(async () => expect((await jobOf(db(), "messages.tell", "messageId", id))?.state).toBe("retry"), { timeout: 30_000 });
        await makeJobDue(db(), "messages.tell", "messageId", id, { exhausted: true });
        await vi.waitFor(async () => expect((await jobOf(db(), "messages.tell", "messageId", id))?.state).toBe("failed"), { timeout: 30_000 });
      }
      const gaveUp = await messageOf(lead.threadId, "Fails: its job gives up");
      const gone = await messageOf(lead.threadId, "Fails: its job is gone");
      const always = await messageOf(lead.threadId, "Fails: always");
      const fresh = await messageOf(lead.threadId, "Fails: a minute ago");
      await db().execute(sql`delete from pgboss.job where name = 'messages.tell' and data->>'messageId' in (${gone.id}, ${fresh.id})`);
      // An old message nobody was told of (written before migration 0058, or whose job is long gone).
      const [old] = await db()
        .insert(messages)
        .values({ threadId: lead.threadId, senderId: lead.client.id, body: "Written 7 hours ago", createdAt: sql`now() - interval '7 hours'` })
        .returning();
      await db().update(messages).set({ createdAt: sql`now() - interval '10 minutes'` }).where(inArray(messages.id, [gaveUp.id, gone.id, always.id]));
      await db().update(messages).set({ createdAt: sql`now() - interval '1 minute'` }).where(eq(messages.id, fresh.id));
      await failTellsOf("Fails: always");
      expect((await db().select().from(messages).where(and(eq(messages.threadId, lead.threadId), sql`told_at is null`))).length).toBe(5);

      const failures: string[] = [];
      // (The schedule may come first: either way, each is told once.)
      const swept = await sweepUntoldMessages(app().services, (id) => failures.push(id));
      expect(swept.told).toBeLessThanOrEqual(2);
      expect(failures).toEqual([always.id]);
      const toldOf = async () =>
        (await db().select({ body: messages.body }).from(messages).where(and(eq(messages.threadId, lead.threadId), sql`told_at is not null`))).map((m) => m.body).sort();
      expect(await toldOf()).toEqual(["Fails: its job gives up", "Fails: its job is gone"]);
      await jobsSettled(db(), "push.send");
      await vi.waitFor(() => expect(pushing.receivedBy(phone)).toHaveLength(2), { timeout: 30_000 });
      expect(pushing.receivedBy(phone).map((p) => p.message.body).sort()).toEqual(
        ["Fails: its job gives up", "Fails: its job is gone"].map((t) => `${lead.gig.title}: ${t}`),
      );

      // Again, and through its job: nothing is told twice, the old and the fresh stay untold.
      expect(await sweepUntoldMessages(app().services)).toEqual({ told: 0, failed: 1, resumeAfter: null });
      await app().services.jobs.send("messages.tell-sweep", {});
      await jobsSettled(db(), "messages.tell-sweep");
      await jobsSettled(db(), "push.send");
      expect(pushing.receivedBy(phone)).toHaveLength(2);
      expect(await toldOf()).toEqual(["Fails: its job gives up", "Fails: its job is gone"]);
      const untold = await db().select({ id: messages.id }).from(messages).where(and(eq(messages.threadId, lead.threadId), sql`told_at is null`));
      expect(untold.map((m) => m.id).sort()).toEqual([always.id, fresh.id, old!.id].sort());
    } finally {
      await db().execute(sql`drop trigger if exists test_fail_tell on messages`);
      await db().execute(sql`drop function if exists test_fail_tell()`);
    }
  });

  it("begins a run where the last one stopped: a run's worth of messages failing every time keeps no newer one from its turn", async () => {
    const lead = await boughtLead(app());
    await failTellsOf("Stuck");
    await db().execute(sql`create trigger test_fail_tell before update on messages for each row execute function test_fail_tell()`);
    try {
      // 1,000 (a run: 10 rounds of 100) whose telling fails every time, the oldest in the window, then one that does not.
      const stuck = await db()
        .insert(messages)
        .values(Array.from({ length: 1000 }, (_, i) => ({ threadId: lead.threadId, senderId: lead.client.id, body: `Stuck ${i}`, createdAt: sql`now() - interval '5 hours 50 minutes' + make_interval(secs => ${i / 1000})` })))
        .returning({ id: messages.id });
      const [next] = await db()
        .insert(messages)
        .values({ threadId: lead.threadId, senderId: lead.client.id, body: "Told at last", createdAt: sql`now() - interval '10 minutes'` })
        .returning({ id: messages.id });
      const first = await sweepUntoldMessages(app().services);
      expect(first.failed).toBe(1000);
      expect(first.resumeAfter?.id).toBe(stuck.at(-1)!.id);
      // The next run begins after them, and reaches the newer message.
      const second = await sweepUntoldMessages(app().services, undefined, first.resumeAfter);
      expect(second.resumeAfter).toBeNull();
      expect(await db().select({ id: messages.id }).from(messages).where(and(eq(messages.id, next!.id), sql`told_at is not null`))).toHaveLength(1);
    } finally {
      await db().execute(sql`drop trigger if exists test_fail_tell on messages`);
      await db().execute(sql`drop function if exists test_fail_tell()`);
      await db().update(messages).set({ toldAt: sql`now()` }).where(and(eq(messages.threadId, lead.threadId), sql`told_at is null`));
    }
  });

  it("tells nobody of a message its recipient has read since: claimed, not pushed hours late", async () => {
    const lead = await boughtLead(app());
    const phone = await pushing.deviceOf(lead.digger);
    // Two messages whose jobs are gone, 10 minutes old; the digger has read the thread past the first.
    const [read, unread] = await db()
      .insert(messages)
      .values(["Read in the app already", "Not read yet"].map((body) => ({ threadId: lead.threadId, senderId: lead.client.id, body, createdAt: sql`now() - interval '10 minutes'` })))
      .returning();
    await db().update(threads).set({ diggerReadSeq: read!.seq }).where(eq(threads.id, lead.threadId));

    await sweepUntoldMessages(app().services);
    const untold = await db().select({ id: messages.id }).from(messages).where(and(eq(messages.threadId, lead.threadId), sql`told_at is null`));
    expect(untold).toEqual([]);
    await jobsSettled(db(), "push.send");
    await vi.waitFor(() => expect(pushing.receivedBy(phone)).toHaveLength(1), { timeout: 30_000 });
    expect(pushing.receivedBy(phone)[0]!.message.body).toBe(`${lead.gig.title}: ${unread!.body}`);
  });

  it("reads the untold messages through messages_untold_idx, in rounds after a cursor", async () => {
    const lead = await boughtLead(app());
    // More than a round's 100, 10 minutes old: a second round reads after the first's last.
    await db()
      .insert(messages)
      .values(Array.from({ length: 101 }, (_, n) => ({ threadId: lead.threadId, senderId: lead.client.id, body: `Untold ${n}`, createdAt: sql`now() - interval '10 minutes'` })));
    const recorded: Statement[] = [];
    await sweepUntoldMessages({ db: recordingDb(app(), recorded), emit: app().services.emit });
    expect(await db().select({ id: messages.id }).from(messages).where(and(eq(messages.threadId, lead.threadId), sql`told_at is null`))).toEqual([]);
    const reads = recorded.filter((s) => /from messages\s+where told_at is null/.test(s.sql));
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.some((read) => read.sql.includes("(created_at, id) >"))).toBe(true);
    for (const read of reads) expect(await plan(app(), read)).toContain("messages_untold_idx");
  });
});
