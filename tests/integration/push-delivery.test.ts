/**
 * Batched push delivery (issue 35, decision 0052), through the real app and its job queue to
 * the local push service over https (tests/support/push-service.ts): each push of a batch
 * settles on its own (one failing endpoint is retried alone, with its job's backoff; a 410
 * removes only that device), a push goes exactly once however often its job runs, even twice at
 * once, and a push follows its bell entry's once-a-day rule.
 */
import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { notifications, pushes, pushSubscriptions } from "../../server/db/schema.ts";
import { deliverPushes, purgeStalePushes, pushToUser, type PushMessage } from "../../server/push/send.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { pushTestAppOfThisFile } from "../support/push-app.ts";
import { jobOf, jobsSettled, makeJobDue } from "../support/jobs.ts";
import type { BrowserSubscription } from "../support/push-service.ts";

const pushing = pushTestAppOfThisFile();
const { deviceOf, receivedBy } = pushing;

const db = () => pushing.app.database.db;

/** The push waiting for this device, if any. */
async function pushFor(device: BrowserSubscription) {
  const [row] = await db()
    .select({ id: pushes.id, attempts: pushes.attempts })
    .from(pushes)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushes.subscriptionId))
    .where(eq(pushSubscriptions.endpoint, device.endpoint));
  return row;
}

/** Pushes `message` to `user` in one event's transaction; answers the pushes' ids, as the jobs carry them. */
async function push(user: TestUser, message: PushMessage): Promise<string[]> {
  return db().transaction(async (tx) => {
    const waiting = () =>
      tx
        .select({ id: pushes.id })
        .from(pushes)
        .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushes.subscriptionId))
        .where(eq(pushSubscriptions.userId, user.id));
    const before = new Set((await waiting()).map((row) => row.id));
    expect(await pushToUser(tx, pushing.app.services.jobs, user.id, message)).toBeGreaterThan(0);
    return (await waiting()).map((row) => row.id).filter((id) => !before.has(id));
  });
}

describe("a batch of pushes", () => {
  it("retries only the push whose endpoint failed, with its own job's backoff; the others go once", async () => {
    const user = await signUpAs(pushing.app, "digger");
    const [a, failing, b] = [await deviceOf(user), await deviceOf(user), await deviceOf(user)];
    pushing.pushService.answer(failing, 503);
    await push(user, { title: "New lead: Fix a gate", body: "Fencing · Austin, TX", link: "/gig/1", urgency: "high" });

    await vi.waitFor(() => expect([...receivedBy(a), ...receivedBy(b)]).toHaveLength(2), { timeout: 30_000 });
    const waiting = (await vi.waitFor(
      async () => {
        const row = await pushFor(failing);
        expect(row?.attempts).toBe(1);
        expect((await jobOf(db(), "push.send", "pushId", row!.id))?.state).toBe("retry");
        return row!;
      },
      { timeout: 30_000 },
    ))!;
    // Its job waits for its backoff; the taken pushes are gone, their jobs done.
    expect((await jobOf(db(), "push.send", "pushId", waiting.id))!.wait_seconds).toBeGreaterThan(0);
    expect(await pushFor(a)).toBeUndefined();
    expect(await pushFor(b)).toBeUndefined();
    expect(receivedBy(failing)).toEqual([]);

    pushing.pushService.answer(failing, 0); // The push service is back.
    await makeJobDue(db(), "push.send", "pushId", waiting.id);
    await vi.waitFor(() => expect(receivedBy(failing)).toHaveLength(1), { timeout: 30_000 });
    await jobsSettled(db(), "push.send");
    expect((await jobOf(db(), "push.send", "pushId", waiting.id))?.state).toBe("completed");
    expect([receivedBy(a).length, receivedBy(b).length, receivedBy(failing).length]).toEqual([1, 1, 1]);
    expect(await pushFor(failing)).toBeUndefined();
  });

  it("removes only the device whose push service answers 410, with the pushes still waiting for it", async () => {
    const [user, other] = [await signUpAs(pushing.app, "digger"), await signUpAs(pushing.app, "digger")];
    const [kept, gone, theirs] = [await deviceOf(user), await deviceOf(user), await deviceOf(other)];
    pushing.pushService.answer(gone, 410);
    await push(user, { title: "One", body: "first", link: "/" });
    await push(other, { title: "One", body: "first", link: "/" });
    await vi.waitFor(() => expect([...receivedBy(kept), ...receivedBy(theirs)]).toHaveLength(2), { timeout: 30_000 });
    await jobsSettled(db(), "push.send");
    const endpoints = await db()
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.userId, [user.id, other.id]));
    expect(endpoints.map((d) => d.endpoint).sort()).toEqual([kept.endpoint, theirs.endpoint].sort());
    expect(await pushFor(gone)).toBeUndefined();
    // Nothing was retried: the 410 settled that push for good.
    expect(await db().execute(sql`select 1 from pgboss.job where name = 'push.send' and state = 'retry'`)).toMatchObject({ rows: [] });
  });

  it("sends each push exactly once when the same batch runs again, even twice at once beside its worker", async () => {
    const user = await signUpAs(pushing.app, "digger");
    const devices = [await deviceOf(user), await deviceOf(user), await deviceOf(user)];
    const ids = await push(user, { title: "Twice?", body: "once", link: "/" });
    expect(ids).toHaveLength(3);
    // The queue's worker runs the jobs; the same batch is run twice more at the same moment.
    const outcomes = await Promise.all([deliverPushes(pushing.app.services, ids), deliverPushes(pushing.app.services, ids)]);
    expect(outcomes.flat()).toHaveLength(6);
    await vi.waitFor(() => expect(devices.flatMap(receivedBy)).toHaveLength(3), { timeout: 30_000 });
    await jobsSettled(db(), "push.send");
    // And once more after everything was sent: nothing to do, each job's outcome done.
    expect(await deliverPushes(pushing.app.services, ids)).toEqual([null, null, null]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(devices.map((device) => receivedBy(device).length)).toEqual([1, 1, 1]);
    expect(await db().select().from(pushes).where(inArray(pushes.id, ids))).toEqual([]);
  });

  it("deletes, hourly, the pushes a day old that reached no device, and only those", async () => {
    const user = await signUpAs(pushing.app, "digger");
    const device = await deviceOf(user);
    pushing.pushService.answer(device, 503);
    const [stale] = await push(user, { title: "Old", body: "a day old", link: "/" });
    const [fresh] = await push(user, { title: "New", body: "just now", link: "/" });
    await db().update(pushes).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(pushes.id, stale!));
    expect(await purgeStalePushes(db())).toBeGreaterThanOrEqual(1);
    expect((await db().select({ id: pushes.id }).from(pushes).where(inArray(pushes.id, [stale!, fresh!]))).map((row) => row.id)).toEqual([fresh]);
    pushing.pushService.answer(device, 0);
  });
});

describe("the push of an event with a bell entry", () => {
  it("follows the entry's once-a-day rule: a repeated event pushes once, another subject again", async () => {
    const user = await signUpAs(pushing.app, "digger");
    const device = await deviceOf(user);
    const [gigId, otherGigId] = [randomUUID(), randomUUID()];
    const filled = (id: string, gigTitle: string) =>
      db().transaction((tx) => pushing.app.services.emit(tx, { kind: "gig.filled", gigId: id, gigTitle, buyerUserIds: [user.id] }));
    await filled(gigId, "Paint the shed");
    await filled(gigId, "Paint the shed"); // Closed, reopened, closed again within the day.
    await filled(otherGigId, "Mend the fence");
    await vi.waitFor(() => expect(receivedBy(device)).toHaveLength(2), { timeout: 30_000 });
    await jobsSettled(db(), "push.send");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedBy(device).map((p) => p.message.body)).toEqual(
      expect.arrayContaining(['The gig "Paint the shed" you bought was closed as filled', 'The gig "Mend the fence" you bought was closed as filled']),
    );
    expect(receivedBy(device)).toHaveLength(2);
    expect(await db().select().from(notifications).where(eq(notifications.userId, user.id))).toHaveLength(2);
  });
});
