/**
 * A new message's push (issue 34): sent at once, unlike its e-mail (notices.ts). The sender as
 * the thread names them, the gig, and the text's start, as text; the link opens the thread.
 */
import { eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { gigs, leadPurchases, messages, threads } from "../db/schema.ts";
import { senderNameOf } from "./notices.ts";

/** A push's body stays short: the notification shows a line or two. */
const BODY_CHARACTERS = 140;

export async function newMessagePush(tx: Transaction, messageId: string, recipientUserId: string): Promise<{ title: string; body: string; link: string } | null> {
  const [row] = await tx
    .select({ threadId: messages.threadId, senderId: messages.senderId, body: messages.body, diggerUserId: threads.diggerUserId, gigTitle: gigs.title })
    .from(messages)
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .where(eq(messages.id, messageId));
  if (!row) return null;
  const senderName = await senderNameOf(tx, row.senderId, recipientUserId === row.diggerUserId ? "client" : "digger");
  const text = row.body.length > BODY_CHARACTERS ? `${row.body.slice(0, BODY_CHARACTERS - 1)}…` : row.body;
  return { title: `New message from ${senderName}`, body: `${row.gigTitle}: ${text}`, link: `/messages/${row.threadId}` };
}
