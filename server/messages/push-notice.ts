/**
 * What a new message's push says (issue 34; its sentence: the event "message.sent",
 * server/events/registry.ts): the sender as the thread names them, the gig, and the text.
 * Sent at once, unlike its e-mail (notices.ts).
 */
import { eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { gigs, leadPurchases, messages, threads } from "../db/schema.ts";
import { senderNameOf } from "./notices.ts";

export async function newMessageFacts(tx: Transaction, messageId: string, recipientUserId: string): Promise<{ senderName: string; gigTitle: string; text: string } | null> {
  const [row] = await tx
    .select({ senderId: messages.senderId, body: messages.body, diggerUserId: threads.diggerUserId, gigTitle: gigs.title })
    .from(messages)
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .where(eq(messages.id, messageId));
  if (!row) return null;
  const senderName = await senderNameOf(tx, row.senderId, recipientUserId === row.diggerUserId ? "client" : "digger");
  return { senderName, gigTitle: row.gigTitle, text: row.body };
}
