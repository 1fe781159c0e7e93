/**
 * Conversations in the account's privacy rights: the data export lists the user's threads with
 * every message as they see it there (hidden and deleted ones by what they show, with its
 * attachments' names), its quotes and its visits (visits/visit-privacy.ts), and the purge
 * of a deleted account blanks the text of every message it sent (and its visit notes and
 * cancellation reasons) ('Message deleted' to the other
 * party) and deletes its attachments, drops its reports and blocks, and leaves the threads to the other party.
 */
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { partyName } from "#core/messages.ts";
import type { Database, Transaction } from "../db/client.ts";
import { blocks, diggerProfiles, gigs, leadPurchases, messageReports, messages, threads, users } from "../db/schema.ts";
import { attachmentNamesOf, purgeAttachmentsOf } from "./attachments.ts";
import { shownText } from "./inbox.ts";
import { exportedVisits, purgeVisitTextsOf } from "./visits/visit-privacy.ts";

export async function exportedThreads(db: Database, userId: string) {
  const mine = await db
    .select({
      id: threads.id,
      diggerUserId: threads.diggerUserId,
      gigTitle: gigs.title,
      otherName: users.name,
      otherDeletedAt: users.deletedAt,
      handle: diggerProfiles.handle,
      createdAt: threads.createdAt,
    })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .leftJoin(users, sql`${users.id} = case when ${threads.diggerUserId} = ${userId} then ${threads.clientId} else ${threads.diggerUserId} end`)
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, threads.diggerUserId))
    .where(or(eq(threads.diggerUserId, userId), eq(threads.clientId, userId)))
    .orderBy(asc(threads.createdAt));
  return Promise.all(
    mine.map(async (thread) => {
      const rows = await db
        .select({ id: messages.id, senderId: messages.senderId, body: messages.body, hiddenAt: messages.hiddenAt, deletedAt: messages.deletedAt, createdAt: messages.createdAt })
        .from(messages)
        .where(eq(messages.threadId, thread.id))
        .orderBy(asc(messages.seq));
      const names = await attachmentNamesOf(db, rows.filter((row) => row.deletedAt === null).map((row) => row.id));
      const iAmDigger = thread.diggerUserId === userId;
      return {
        id: thread.id,
        gigTitle: thread.gigTitle,
        role: iAmDigger ? "digger" : "client",
        with: partyName({ role: iAmDigger ? "client" : "digger", deleted: thread.otherName === null || thread.otherDeletedAt !== null, handle: thread.handle, fullName: thread.otherName }),
        createdAt: thread.createdAt,
        ...(await exportedVisits(db, userId, thread.id)),
        messages: rows.map((row) => ({
          id: row.id,
          fromMe: row.senderId === userId,
          text: shownText({ body: row.body, hidden: row.hiddenAt !== null, deleted: row.deletedAt !== null }),
          /** The names of its attachments (the files themselves stay in the thread). */
          attachments: names.get(row.id) ?? [],
          createdAt: row.createdAt,
        })),
      };
    }),
  );
}

/**
 * In the purge's transaction: the account's messages lose their text (and a reply by e-mail's Message-ID) and their attachments' rows;
 * its reports and blocks go. Returns the attachments' storage keys, for the purge to delete the files.
 */
export async function purgeMessagesOf(tx: Transaction, userId: string): Promise<string[]> {
  const attachmentKeys = await purgeAttachmentsOf(tx, userId);
  await purgeVisitTextsOf(tx, userId);
  await tx
    .update(messages)
    .set({ body: "", emailMessageId: null, deletedAt: sql`now()` })
    .where(and(eq(messages.senderId, userId), isNull(messages.deletedAt)));
  await tx.delete(messageReports).where(eq(messageReports.reporterId, userId));
  await tx.delete(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
  return attachmentKeys;
}
