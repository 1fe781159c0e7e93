/**
 * Block the other party of a thread: no message goes either way in any thread of theirs while
 * a block stands; the row's primary key makes a second Block a no-op.
 */
import { MESSAGE_TEXTS } from "#core/messages.ts";
import type { Database } from "../db/client.ts";
import { blocks } from "../db/schema.ts";
import { defineOperation } from "../operation.ts";
import { THREAD, threadParty } from "./access.ts";

async function blockOther(db: Database, userId: string, threadId: string): Promise<{ success: string }> {
  const party = await threadParty(db, userId, threadId);
  await db.insert(blocks).values({ blockerId: userId, blockedId: party.otherId }).onConflictDoNothing();
  return { success: MESSAGE_TEXTS.blocked };
}

export const blockInThread = defineOperation({
  access: THREAD,
  run: ({ services: { db }, user, thread }) => blockOther(db, user.id, thread.id),
});
