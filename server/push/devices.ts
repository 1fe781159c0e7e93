/**
 * The devices a user turned push notifications on for (issue 34; the Notifications on this
 * device card of /account). A device is the browser's push subscription, kept for the session
 * that turned it on (deleted with that session, with the account, and by the push job when its
 * push service says it is gone); at most 10 per user, a limit the database enforces
 * (migration 0030). A person sees and removes only their own devices.
 */
import { and, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { removePushDeviceSchema} from "#core/push-schemas.ts";
import { deviceSummary, PUSH_MESSAGES, type PushSubscriptionInput } from "#core/push-schemas.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { databaseErrorOf } from "../db/errors.ts";
import { pushSubscriptions } from "../db/schema.ts";
import { AppError } from "../errors.ts";

/** The per-user limit's name, as the trigger of migration 0030 reports it. */
const DEVICE_LIMIT = "push_subscriptions_per_user_limit";

export interface PushDevice {
  id: string;
  /** "Chrome on Android". */
  device: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Turned on in the session that is looking: the device in the person's hand. */
  current: boolean;
}

/** The card's data: null when pushes are off on this server (no VAPID keys), so the card is hidden. */
export interface PushDevicesCard {
  publicKey: string;
  devices: PushDevice[];
}

export async function pushDevicesCard(db: Database, config: Config, userId: string, sessionId: string | undefined): Promise<PushDevicesCard | null> {
  if (!config.push) return null;
  const rows = await db
    .select({ id: pushSubscriptions.id, device: pushSubscriptions.device, createdAt: pushSubscriptions.createdAt, lastUsedAt: pushSubscriptions.lastUsedAt, sessionId: pushSubscriptions.sessionId })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
  return {
    publicKey: config.push.publicKey,
    devices: rows.map(({ sessionId: owner, ...device }) => ({ ...device, current: owner === sessionId })),
  };
}

function pushesOn(config: Config): void {
  if (!config.push) throw new AppError("not_found", PUSH_MESSAGES.unsupported);
}

/**
 * Keeps this device's subscription for the user and the session that sent it. A device already
 * on (its endpoint) is taken over: by this session, and by this user if another account had it.
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
  try {
    await db
      .insert(pushSubscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: row.userId, sessionId: row.sessionId, p256dh: row.p256dh, auth: row.auth, device: row.device },
      });
  } catch (error) {
    if (databaseErrorOf(error).constraint === DEVICE_LIMIT) throw new AppError("conflict", PUSH_MESSAGES.tooMany, { cause: error });
    throw error;
  }
}

/** Removes one of the user's own devices; another's, or one already gone, is not found. */
export async function removePushDevice(db: Database, userId: string, { deviceId }: z.output<typeof removePushDeviceSchema>): Promise<void> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, deviceId), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (removed.length === 0) throw new AppError("not_found", PUSH_MESSAGES.notFound);
}
