/**
 * `publish(tx, userIds, event)`: tells these users' open live streams, on every server, of an
 * event, at the commit of the caller's transaction: a NOTIFY on the bus's `live` channel sent
 * inside it (PostgreSQL and PGlite alike deliver it at commit, and never for a rolled-back
 * write). The notice carries user ids and the event's ids, nothing a page shows: each stream
 * passes on its own user's events only (docs/decisions/0040-live-updates.md).
 */
import { sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import type { LiveEvent } from "#core/live-events.ts";
import { MAX_PAYLOAD_BYTES } from "../bus.ts";
import type { Database, Transaction } from "../db/client.ts";

export const LIVE_CHANNEL = "live";
const MAX_USER_ID_LENGTH = 64;

/** What travels on the channel: the users and the event. */
export interface LiveNoticePayload {
  u: string[];
  e: LiveEvent;
}

function checkEvent(event: LiveEvent): LiveEvent {
  // Only the ids: whatever else an object passed in holds stays out of the notice.
  if (event.kind === "thread" && isUuid(event.threadId)) return { kind: event.kind, threadId: event.threadId };
  if (event.kind === "quotes" && isUuid(event.gigId)) return { kind: event.kind, gigId: event.gigId };
  throw new Error(`not a live event: ${JSON.stringify(event)}`);
}

/** The notices for these users: as few as fit in NOTIFY's payload limit. */
export function livePayloads(userIds: readonly string[], event: LiveEvent): string[] {
  const e = checkEvent(event);
  const users = [...new Set(userIds)];
  for (const id of users) if (typeof id !== "string" || id.length === 0 || id.length > MAX_USER_ID_LENGTH) throw new Error(`not a user id: ${String(id)}`);
  const payloads: string[] = [];
  const encode = (u: string[]) => JSON.stringify({ u, e } satisfies LiveNoticePayload);
  let batch: string[] = [];
  for (const id of users) {
    if (batch.length > 0 && Buffer.byteLength(encode([...batch, id])) > MAX_PAYLOAD_BYTES) {
      payloads.push(encode(batch));
      batch = [];
    }
    batch.push(id);
  }
  if (batch.length > 0) payloads.push(encode(batch));
  return payloads;
}

/** A payload heard on the channel, or null when it is not one of ours. */
export function parseLivePayload(payload: string): LiveNoticePayload | null {
  try {
    const parsed = JSON.parse(payload) as Partial<LiveNoticePayload>;
    if (!Array.isArray(parsed.u) || !parsed.u.every((id) => typeof id === "string") || !parsed.e) return null;
    return { u: parsed.u, e: checkEvent(parsed.e) };
  } catch {
    return null;
  }
}

export type PublishLive = (tx: Database | Transaction, userIds: readonly string[], event: LiveEvent) => Promise<void>;

export const publishLive: PublishLive = async (tx, userIds, event) => {
  for (const payload of livePayloads(userIds, event)) await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
};
