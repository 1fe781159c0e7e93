/** Unblock the other party of a thread: messages may go again (unless they blocked back). */
import { and, eq } from "drizzle-orm";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import type { Database } from "../db/client.ts";
import { blocks } from "../db/schema.ts";
import { defineOperation } from "../operation.ts";
import { THREAD, threadParty } from "./access.ts";

async function unblockOther(db: Database, userId: string, threadId: string): Promise<{ success: string }> {
  const party = await threadParty(db, userId, threadId);
  await db.delete(blocks).where(and(eq(blocks.blockerId, userId), eq(blocks.blockedId, party.otherId)));
  return { success: MESSAGE_TEXTS.unblocked };
}

export const unblockInThread = defineOperation({
  access: THREAD,
  run: ({ services: { db }, user, thread }) => unblockOther(db, user.id, thread.id),
});
