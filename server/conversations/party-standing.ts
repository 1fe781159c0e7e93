/**
 * Whether a thread's two parties may still act on it together (a message, a visit): both
 * accounts read share-locked, so that a suspension or a deletion in flight waits for the
 * caller's transaction (or it for them), and whether a block stands either way.
 */
import { and, eq, or, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { placeholder, preparedRows } from "../db/prepared.ts";
import { blocks, users } from "../db/schema.ts";
import type { ThreadParty } from "./access.ts";

export interface PartyStanding {
  meDeleted: boolean;
  meSuspended: boolean;
  /** The other party's account is deleted (or gone). */
  otherGone: boolean;
  otherSuspended: boolean;
  blocked: boolean;
}

export async function partyStanding(tx: Transaction, party: ThreadParty): Promise<PartyStanding> {
  const people = await tx
    .select({ id: users.id, deletedAt: users.deletedAt, suspendedAt: users.suspendedAt })
    .from(users)
    .where(or(eq(users.id, party.userId), eq(users.id, party.otherId)))
    .for("share");
  const me = people.find((person) => person.id === party.userId);
  const other = people.find((person) => person.id === party.otherId);
  const [block] = await tx
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerId, party.userId), eq(blocks.blockedId, party.otherId)),
        and(eq(blocks.blockerId, party.otherId), eq(blocks.blockedId, party.userId)),
      ),
    )
    .limit(1);
  return {
    meDeleted: !me || me.deletedAt !== null,
    meSuspended: me?.suspendedAt != null,
    otherGone: !other || other.deletedAt !== null,
    otherSuspended: other?.suspendedAt != null,
    blocked: Boolean(block),
  };
}

/** The thread's row locked and both accounts share-locked (prepared: server/db/prepared.ts, a send's hot path). */
const lockThreadStanding = preparedRows<{
  id: string;
  digger_user_id: string;
  client_id: string;
  me_deleted: boolean;
  me_suspended: boolean;
  other_deleted: boolean;
  other_suspended: boolean;
}>(
  "send_lock_thread",
  () => sql`select t.id, t.digger_user_id, t.client_id,
      me.deleted_at is not null as me_deleted, me.suspended_at is not null as me_suspended,
      other.deleted_at is not null as other_deleted, other.suspended_at is not null as other_suspended
    from threads t
    join users me on me.id = ${placeholder("userId")}
    join users other on other.id = case when t.digger_user_id = ${placeholder("userId")} then t.client_id else t.digger_user_id end
    where t.id = ${placeholder("threadId")} and (t.digger_user_id = ${placeholder("userId")} or t.client_id = ${placeholder("userId")})
    for no key update of t for share of me, other`,
);

/** A block either way between the two (prepared, as above). */
const blockBetween = preparedRows<{ one: number }>(
  "send_block_between",
  () => sql`select 1 as one from blocks b
    where (b.blocker_id = ${placeholder("userId")} and b.blocked_id = ${placeholder("otherId")})
       or (b.blocker_id = ${placeholder("otherId")} and b.blocked_id = ${placeholder("userId")}) limit 1`,
);

/**
 * A send's first statements (send-message.ts): thread `threadId` as party `userId` sees it, its row
 * locked for the write and both accounts share-locked in one round trip (issue 52: the thread's
 * lock is held from here to the commit), then the block looked up in a statement of its own. A
 * block locks the two parties' threads before it is written (block-other.ts), and a statement
 * reads other tables as they were when it began, before it waited for the lock: only a statement
 * begun after the lock sees a block committed while the send waited. Null for anyone not a party
 * of it, an unknown thread alike.
 */
export async function lockedThreadStanding(tx: Transaction, userId: string, threadId: string): Promise<{ party: ThreadParty; standing: PartyStanding } | null> {
  const [row] = await lockThreadStanding(tx, undefined, { userId, threadId });
  if (!row) return null;
  const role = row.digger_user_id === userId ? "digger" : "client";
  const otherId = role === "digger" ? row.client_id : row.digger_user_id;
  const [block] = await blockBetween(tx, undefined, { userId, otherId });
  return {
    party: { id: row.id, role, userId, otherId },
    standing: {
      meDeleted: row.me_deleted,
      meSuspended: row.me_suspended,
      otherGone: row.other_deleted,
      otherSuspended: row.other_suspended,
      blocked: block !== undefined,
    },
  };
}
