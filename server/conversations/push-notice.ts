/**
 * What a new message's push says (issue 34; its sentence: the event "message.sent",
 * server/events/registry.ts): the sender as the thread names them, the gig, and the text.
 * Sent at once, unlike its e-mail (message-notices.ts). One query per message sent.
 */
import { eq } from "drizzle-orm";
import { partyName } from "#core/messages.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases, messages, threads, users } from "../db/schema.ts";

export async function newMessageFacts(tx: Transaction, messageId: string, recipientUserId: string): Promise<{ senderName: string; gigTitle: string; text: string }> {
  const [row] = await tx
    .select({
      body: messages.body,
      diggerUserId: threads.diggerUserId,
      gigTitle: gigs.title,
      senderFullName: users.name,
      senderDeletedAt: users.deletedAt,
      senderHandle: diggerProfiles.handle,
    })
    .from(messages)
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .leftJoin(users, eq(users.id, messages.senderId))
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, messages.senderId))
    .where(eq(messages.id, messageId));
  if (!row) throw new Error(`message ${messageId} is not written`);
  // Named as the thread names them (core/messages.ts `partyName`, as message-notices.ts's `senderNameOf`).
  const senderName = partyName({
    role: recipientUserId === row.diggerUserId ? "client" : "digger",
    deleted: row.senderFullName === null || row.senderDeletedAt !== null,
    handle: row.senderHandle,
    fullName: row.senderFullName,
  });
  return { senderName, gigTitle: row.gigTitle, text: row.body };
}
