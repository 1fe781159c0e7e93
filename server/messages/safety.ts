/**
 * Block / Unblock the other party of a thread (no message goes either way in any thread of
 * theirs while a block stands; the row's primary key makes a second Block a no-op), and Report
 * a message of the thread with a reason (once per message and reporter, by the unique index),
 * for the console's Messages queue (ops/message-moderation.ts).
 */
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { MESSAGE_TEXTS, type messageReportSchema } from "#core/messages.ts";
import type { Database } from "../db/client.ts";
import { blocks, messageReports, messages } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { threadParty } from "./access.ts";

export async function blockOther(db: Database, userId: string, threadId: string): Promise<{ success: string }> {
  const party = await threadParty(db, userId, threadId);
  await db.insert(blocks).values({ blockerId: userId, blockedId: party.otherId }).onConflictDoNothing();
  return { success: MESSAGE_TEXTS.blocked };
}

export async function unblockOther(db: Database, userId: string, threadId: string): Promise<{ success: string }> {
  const party = await threadParty(db, userId, threadId);
  await db.delete(blocks).where(and(eq(blocks.blockerId, userId), eq(blocks.blockedId, party.otherId)));
  return { success: MESSAGE_TEXTS.unblocked };
}

/** A party reports a message of the thread (their own included: nothing stops it, nothing comes of it but the queue). */
export async function reportMessage(db: Database, userId: string, threadId: string, report: z.output<typeof messageReportSchema>): Promise<{ success: string }> {
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
