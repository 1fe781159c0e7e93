/**
 * Pushing to a user's devices (issue 34, batched for issue 35 in decision 0052): `pushToUser`
 * records one `pushes` row per device of the user and enqueues a `push.send` job for each, in
 * the event's transaction (never sent in the request). The queue hands the jobs over in
 * batches to `deliverPushes`, which claims their rows in one statement, sends them side by side
 * through the push service client's kept-alive connections (push-service-client.ts), and
 * settles each push on its own: taken, its row is deleted and the device's last use recorded;
 * gone (404 or 410), the subscription is deleted with its pushes; a push service that may get
 * over it (429, 5xx, no answer) fails that push's job alone, retried with its own backoff.
 * Which events push to whom (the How to reach me table) is the event path's to decide
 * (server/events/): `pushToUser` is the one function it calls.
 */
import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { queryRows, type Database, type Transaction } from "../db/client.ts";
import { pushes, pushSubscriptions } from "../db/schema.ts";
import type { JobData, JobQueue } from "../jobs/queue.ts";
import type { Logger } from "../logger.ts";
import type { PushClient, PushPayload } from "./push-service-client.ts";

export interface PushMessage extends PushPayload {
  /** `high` for new messages and instant lead alerts: the device wakes for it. */
  urgency?: "high" | "normal";
}

/** How long a push service keeps a push for a device that is off: a day, then it is stale. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/**
 * How long a delivery holds the pushes it claimed: the `push.send` job's expiry (jobs/queue.ts),
 * far above the client's 10 s timeout. A re-run of a job within it sends nothing.
 */
const CLAIM_SECONDS = 60;

/**
 * Records `message` for every device of `userId` and enqueues its jobs, in `tx`: they exist
 * exactly when the event commits. Two statements whatever the number of devices. Answers how
 * many devices it goes to (none: the user turned no device on).
 */
export async function pushToUser(tx: Transaction, jobs: JobQueue, userId: string, message: PushMessage): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into pushes (subscription_id, title, body, link, urgency)
        select id, ${message.title}, ${message.body}, ${message.link}, ${message.urgency ?? "normal"}
        from push_subscriptions where user_id = ${userId}
        returning id`,
  );
  await jobs.sendMany(
    "push.send",
    rows.map((row): JobData["push.send"] => ({ pushId: row.id })),
    { tx },
  );
  return rows.length;
}

/** A push service's answers that mean the subscription is gone for good. */
const GONE = new Set([404, 410]);

type PushServices = { db: Database; push: PushClient | null; logger: Logger };

/**
 * One try of each push of a batch of `push.send` jobs; answers each job's outcome in order (null:
 * done, or nothing left to do; an error: retried with that job's backoff).
 */
export async function deliverPushes(services: PushServices, pushIds: readonly string[]): Promise<Array<Error | null>> {
  if (!services.push || pushIds.length === 0) return pushIds.map(() => null); // Pushes off since (no VAPID keys): nothing can be sent.
  const client = services.push;
  // One claim for the batch: each push still recorded and not held by another delivery counts a
  // try and is held for CLAIM_SECONDS.
  const claimed = await services.db
    .update(pushes)
    .set({ attempts: sql`${pushes.attempts} + 1`, sendingUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` })
    .from(pushSubscriptions)
    .where(and(inArray(pushes.id, [...pushIds]), eq(pushSubscriptions.id, pushes.subscriptionId), or(isNull(pushes.sendingUntil), lte(pushes.sendingUntil, sql`now()`))))
    .returning({
      id: pushes.id,
      subscriptionId: pushes.subscriptionId,
      title: pushes.title,
      body: pushes.body,
      link: pushes.link,
      urgency: pushes.urgency,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    });
  const outcome = new Map<string, Error | null>();
  const unclaimed = pushIds.filter((id) => !claimed.some((row) => row.id === id));
  if (unclaimed.length > 0) {
    // Not claimed and gone: sent already, or its device is gone (done). Not claimed and still
    // there: another delivery holds it (a re-run of its job while the first still runs); this
    // job is retried later, and by then it was sent (done) or released (sent then).
    const held = await services.db.select({ id: pushes.id }).from(pushes).where(inArray(pushes.id, unclaimed));
    for (const { id } of held) outcome.set(id, new Error("the push is being sent by another delivery"));
  }
  // Side by side over the client's kept-alive sockets; each push settles on its own.
  await Promise.all(claimed.map(async (row) => outcome.set(row.id, await deliverOne(services, client, row))));
  return pushIds.map((id) => outcome.get(id) ?? null);
}

/** Sends one claimed push and settles it: null once done, else the error its job is retried for. */
async function deliverOne(
  { db, logger }: PushServices,
  client: PushClient,
  row: { id: string; subscriptionId: string; title: string; body: string; link: string; urgency: "high" | "normal"; endpoint: string; p256dh: string; auth: string },
): Promise<Error | null> {
  let status: number;
  try {
    status = await client.send(row, { title: row.title, body: row.body, link: row.link }, { urgency: row.urgency, ttlSeconds: PUSH_TTL_SECONDS });
  } catch (error) {
    await release(db, row.id);
    return error instanceof Error ? error : new Error(String(error));
  }
  if (GONE.has(status)) {
    // The device is gone: its subscription, and every push still waiting for it.
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, row.subscriptionId));
    return null;
  }
  if (status === 429 || status >= 500) {
    await release(db, row.id);
    return new Error(`the push service answered ${status}`);
  }
  // Deleted at once, each on its own: a re-run of the batch sends nothing already taken.
  if (status >= 200 && status < 300) {
    await db.execute(
      sql`with taken as (delete from pushes where id = ${row.id}::uuid returning subscription_id)
          update push_subscriptions set last_used_at = now() where id in (select subscription_id from taken)`,
    );
    return null;
  }
  // Anything else (400, 403, 413) would be refused again: logged, and dropped.
  logger.warn({ status, pushId: row.id }, "push refused by the push service");
  await db.delete(pushes).where(eq(pushes.id, row.id));
  return null;
}

/** A push that failed is free for its job's next try. */
async function release(db: Database, pushId: string): Promise<void> {
  await db.update(pushes).set({ sendingUntil: null }).where(eq(pushes.id, pushId));
}

/** Deletes the pushes a day old (their TTL) that never reached their device: the `push.purge` job. */
export async function purgeStalePushes(db: Database): Promise<number> {
  const deleted = await db
    .delete(pushes)
    .where(lt(pushes.createdAt, sql`now() - make_interval(secs => ${PUSH_TTL_SECONDS})`))
    .returning({ id: pushes.id });
  return deleted.length;
}
