/**
 * Whether a thread's two parties may still act on it together (a message, a visit): both
 * accounts read share-locked, so that a suspension or a deletion in flight waits for the
 * caller's transaction (or it for them), and whether a block stands either way.
 */
import { and, eq, or } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
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
