/**
 * The devices a user turned push notifications on for (issue 34; the Notifications on this
 * device card of /account). A device is the browser's push subscription, kept for the session
 * that turned it on (deleted with that session, with the account, and by the push job when its
 * push service says it is gone); at most 10 per user, a limit the database enforces
 * (migration 0030). A person sees and removes only their own devices.
 */
import { and, desc, eq, or } from "drizzle-orm";
import type { z } from "zod";
import type { removePushDeviceSchema} from "#core/push-schemas.ts";
import { deviceSummary, PUSH_MESSAGES, type PushSubscriptionInput } from "#core/push-schemas.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { databaseErrorOf } from "../db/errors.ts";
import { pushSubscriptions } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { ReaderTime } from "../reader-time.ts";

/** The per-user limit's name, as the trigger of migration 0030 reports it. */
const DEVICE_LIMIT = "push_subscriptions_per_user_limit";

interface PushDevice {
  id: string;
  /** "Chrome on Android". */
  device: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** "Nov 28, 2026, 7:47 PM CST", in the reader's zone (issue 47). */
  createdAtText: string;
  /** The same, or "never". */
  lastUsedText: string;
  /** Turned on in the session that is looking: the device in the person's hand. */
  current: boolean;
}

/** The card's data: null when pushes are off on this server (no VAPID keys), so the card is hidden. */
export interface PushDevicesCard {
  publicKey: string;
  devices: PushDevice[];
}

export async function pushDevicesCard(db: Database, config: Config, userId: string, sessionId: string | undefined, time: ReaderTime): Promise<PushDevicesCard | null> {
  if (!config.push) return null;
  const rows = await db
    .select({ id: pushSubscriptions.id, device: pushSubscriptions.device, createdAt: pushSubscriptions.createdAt, lastUsedAt: pushSubscriptions.lastUsedAt, sessionId: pushSubscriptions.sessionId })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
  return {
    publicKey: config.push.publicKey,
    devices: rows.map(({ sessionId: owner, ...device }) => ({
      ...device,
      createdAtText: time.dateTime(device.createdAt),
      lastUsedText: device.lastUsedAt ? time.dateTime(device.lastUsedAt) : "never",
      current: owner === sessionId,
    })),
  };
}

function pushesOn(config: Config): void {
  if (!config.push) throw new AppError("not_found", PUSH_MESSAGES.unsupported);
}

/**
 * Keeps this device's subscription for the user and the session that sent it. A device already
 * on (its endpoint) is taken over by this session; from another account (a shared computer)
 * only when the browser proves it holds the subscription: the keys it sends are the ones kept
 * (issue 45, finding 11). An endpoint alone proves nothing: it is an address, not a secret the
 * browser alone knows, and whoever took it over would get the other account's notifications
 * and silence its device. Refused otherwise, in the one statement that would take it over.
 */
export async function turnOnPush(
  db: Database,
  config: Config,
  owner: { userId: string; sessionId: string | undefined; userAgent: string | null },
  input: PushSubscriptionInput,
): Promise<void> {
  pushesOn(config);
  if (!owner.sessionId) throw new AppError("unauthenticated", "Please sign in to continue");
  const row = {
    userId: owner.userId,
    sessionId: owner.sessionId,
    endpoint: input.endpoint,
    p256dh: input.p256dh,
    auth: input.auth,
    device: deviceSummary(owner.userAgent),
  };
  let kept: Array<{ id: string }>;
  try {
    kept = await db
      .insert(pushSubscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: row.userId, sessionId: row.sessionId, p256dh: row.p256dh, auth: row.auth, device: row.device },
        setWhere: or(
          eq(pushSubscriptions.userId, row.userId),
          and(eq(pushSubscriptions.p256dh, row.p256dh), eq(pushSubscriptions.auth, row.auth)),
        ),
      })
      .returning({ id: pushSubscriptions.id });
  } catch (error) {
    if (databaseErrorOf(error).constraint === DEVICE_LIMIT) throw new AppError("conflict", PUSH_MESSAGES.tooMany, { cause: error });
    throw error;
  }
  // Another account's device, with other keys: not this browser's subscription.
  if (kept.length === 0) throw new AppError("invalid_input", PUSH_MESSAGES.badSubscription);
}

/** Removes one of the user's own devices; another's, or one already gone, is not found. */
export async function removePushDevice(db: Database, userId: string, { deviceId }: z.output<typeof removePushDeviceSchema>): Promise<void> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, deviceId), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (removed.length === 0) throw new AppError("not_found", PUSH_MESSAGES.notFound);
}
