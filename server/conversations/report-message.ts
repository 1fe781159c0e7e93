/**
 * Report a message of the thread with a reason (once per message and reporter, by the unique
 * index), for the console's Messages queue (ops/moderate-message.ts, its queue ops/view-reported-messages.ts).
 */
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { MESSAGE_TEXTS, messageReportSchema } from "#core/messages.ts";
import type { Database } from "../db/client.ts";
import { messageReports, messages } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { THREAD, threadParty } from "./access.ts";

/** A party reports a message of the thread (their own included: nothing stops it, nothing comes of it but the queue). */
async function reportMessage(db: Database, userId: string, threadId: string, report: z.output<typeof messageReportSchema>): Promise<{ success: string }> {
  const party = await threadParty(db, userId, threadId);
  const { messageId, reason } = report;
  const [message] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.threadId, party.id)));
  if (!message) throw new AppError("not_found", MESSAGE_TEXTS.messageNotFound);
  const inserted = await db
    .insert(messageReports)
    .values({ messageId, reporterId: userId, reason })
    .onConflictDoNothing({ target: [messageReports.messageId, messageReports.reporterId] })
    .returning({ id: messageReports.id });
  if (inserted.length === 0) throw new AppError("conflict", MESSAGE_TEXTS.reportAlready);
  return { success: MESSAGE_TEXTS.reported };
}

export const reportInThread = defineOperation({
  access: THREAD,
  input: messageReportSchema,
  run: ({ services: { db }, user, thread, input }) => reportMessage(db, user.id, thread.id, input),
});
