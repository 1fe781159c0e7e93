/**
 * Pushing to a user's devices (issue 34): `pushToUser` enqueues one `push.send` job per device
 * of the user, in the event's transaction (never sent in the request); the job sends it through
 * the push service (push-service-client.ts), records when the device was last reached, and
 * deletes a subscription its push service says is gone (404 or 410). Which events push to whom
 * (the How to reach me table) is the event path's to decide (server/events/, issue 31): this
 * is the one function it calls.
 */
import { eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { pushSubscriptions } from "../db/schema.ts";
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
 * Enqueues `message` for every device of `userId`, in `tx`: the jobs exist exactly when the
 * event commits. Answers how many devices it goes to (none: the user turned no device on).
 */
export async function pushToUser(tx: Transaction, jobs: JobQueue, userId: string, message: PushMessage): Promise<number> {
  const devices = await tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  for (const device of devices) {
    const data: JobData["push.send"] = { subscriptionId: device.id, title: message.title, body: message.body, link: message.link, urgency: message.urgency ?? "normal" };
    await jobs.send("push.send", data, { tx });
  }
  return devices.length;
}

/** A push service's answers that mean the subscription is gone for good. */
const GONE = new Set([404, 410]);

/** The `push.send` job: one push to one device. A failure the push service may get over is thrown, to be retried. */
export async function sendPushJob(
  services: { db: Database; push: PushClient | null; logger: Logger },
  { subscriptionId, title, body, link, urgency }: JobData["push.send"],
): Promise<void> {
  if (!services.push) return; // Pushes turned off since (no VAPID keys): nothing can be sent.
  const [device] = await services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
  if (!device) return; // Removed, signed out or deleted since: nothing to send to.
  const status = await services.push.send(device, { title, body, link }, { urgency, ttlSeconds: PUSH_TTL_SECONDS });
  if (GONE.has(status)) {
    await services.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
    return;
  }
  if (status >= 200 && status < 300) {
    await services.db.update(pushSubscriptions).set({ lastUsedAt: new Date() }).where(eq(pushSubscriptions.id, device.id));
    return;
  }
  if (status === 429 || status >= 500) throw new Error(`the push service answered ${status}`);
  // Anything else (400, 403, 413) would be refused again: logged, and dropped.
  services.logger.warn({ status, subscriptionId }, "push refused by the push service");
}
