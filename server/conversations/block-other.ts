/**
 * Block the other party of a thread: no message goes either way in any thread of theirs while
 * a block stands; the row's primary key makes a second Block a no-op. In the same transaction,
 * the upcoming visits between the two are cancelled by the system, both told (issue 50:
 * visits/cancel-visit.ts `cancelUpcomingVisits`).
 */
import { and, eq, or } from "drizzle-orm";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import type { Database } from "../db/client.ts";
import { blocks, threads } from "../db/schema.ts";
import type { Emit } from "../events/emit.ts";
import { defineOperation } from "../operation.ts";
import { THREAD, threadParty } from "./access.ts";
import { cancelUpcomingVisits } from "./visits/cancel-visit.ts";

async function blockOther(db: Database, emit: Emit, userId: string, threadId: string): Promise<{ success: string }> {
  return db.transaction(async (tx) => {
    const party = await threadParty(tx, userId, threadId);
    // Every thread between the two, locked first (in one order): a booking in flight in one of
    // them (which holds its thread's lock) commits before the cancellation below reads the
    // visits, and one that starts later finds the block (issue 50).
    await tx
      .select({ id: threads.id })
      .from(threads)
      .where(or(and(eq(threads.diggerUserId, userId), eq(threads.clientId, party.otherId)), and(eq(threads.diggerUserId, party.otherId), eq(threads.clientId, userId))))
      .orderBy(threads.id)
      .for("update");
    await tx.insert(blocks).values({ blockerId: userId, blockedId: party.otherId }).onConflictDoNothing();
    await cancelUpcomingVisits(tx, emit, { between: [userId, party.otherId] });
    return { success: MESSAGE_TEXTS.blocked };
  });
}

export const blockInThread = defineOperation({
  access: THREAD,
  run: ({ services: { db, emit }, user, thread }) => blockOther(db, emit, user.id, thread.id),
});
