/**
 * Sending a message: text of 1 to 5,000 characters, by a party of the thread, at most 30 a
 * minute and 500 a day per user (counted by every server alike), never to or from someone who
 * blocked the other, never by a suspended account, never to a deleted one. The message, the
 * thread's activity and the sender's own read mark are written in one transaction, then
 * `messageSent` runs in it: the one place a message's consequences go (the live stream's
 * publish, the recipient's notification).
 */
import { and, eq, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { MESSAGE_TEXTS, type messageSchema } from "#core/messages.ts";
import type { Transaction } from "../db/client.ts";
import { blocks, messages, threads, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { publishLive } from "../live/publish.ts";
import type { AppServices } from "../context.ts";
import { newMessageFacts } from "./push-notice.ts";
import { threadParty, type ThreadParty } from "./access.ts";
import { discardAttachments, insertAttachments, type StoredAttachment } from "./attachments.ts";
import { scheduleMessageNotice } from "./notices.ts";

export interface SentMessage {
  id: string;
  seq: number;
  threadId: string;
  senderId: string;
  recipientId: string;
}

/**
 * What follows a written message, in its transaction: both parties' open /messages pages hear
 * of it at the commit (the live stream, docs/decisions/0040-live-updates.md; the sender's own
 * other tabs too), the recipient's devices are pushed to at once, and their notification is
 * scheduled 5 minutes on, unless one is pending already (notices.ts).
 */
export async function messageSent(services: Pick<AppServices, "jobs" | "emit">, tx: Transaction, message: SentMessage): Promise<void> {
  await publishLive(tx, [message.recipientId, message.senderId], { kind: "thread", threadId: message.threadId });
  await scheduleMessageNotice(tx, services.jobs, message.threadId, message.recipientId);
  // Pushed at once, by the recipient's choice (How to reach me); the e-mail waits 5 minutes.
  const facts = await newMessageFacts(tx, message.id, message.recipientId);
  if (facts) await services.emit(tx, { kind: "message.sent", threadId: message.threadId, recipientUserId: message.recipientId, ...facts });
}

/** What else comes with a message's text. */
export interface MessageExtras {
  /**
   * `attachments`: files already checked and stored (attachments.ts: `readMessageForm` for the web
   * form, `storeAttachment` for any other way in); their rows are written with the message, and
   * their files deleted again when the message is not.
   */
  attachments?: StoredAttachment[];
  /** A reply by e-mail's Message-ID (inbound/): the database posts the same e-mail once per thread. */
  emailMessageId?: string | null;
}

/** A message's text, as `messageSchema` parsed it (the thread's form, a reply by e-mail). */
export type MessageInput = z.output<typeof messageSchema>;

export async function sendMessage(
  services: Pick<AppServices, "db" | "rateLimits" | "jobs" | "storage" | "emit">,
  userId: string,
  threadId: string,
  message: MessageInput,
  extras: MessageExtras = {},
): Promise<SentMessage> {
  const attachments = extras.attachments ?? [];
  try {
    return await writeMessage(services, userId, threadId, message, attachments, extras.emailMessageId ?? null);
  } catch (error) {
    await discardAttachments(services.storage, attachments);
    throw error;
  }
}

async function writeMessage(
  services: Pick<AppServices, "db" | "rateLimits" | "jobs" | "emit">,
  userId: string,
  threadId: string,
  { body }: MessageInput,
  attachments: StoredAttachment[],
  emailMessageId: string | null,
): Promise<SentMessage> {
  const { db, rateLimits } = services;
  // A thread of theirs first: nobody else learns that it exists, nor uses up a limit on it.
  await threadParty(db, userId, threadId);
  if (!(await rateLimits.messagesPerMinute.take(userId)) || !(await rateLimits.messagesPerDay.take(userId))) {
    throw new AppError("too_many_requests", MESSAGE_TEXTS.tooFast);
  }
  return db.transaction(async (tx) => {
    const party = await threadParty(tx, userId, threadId, true);
    await refuseUnsendable(tx, party);
    const [row] = await tx.insert(messages).values({ threadId: party.id, senderId: userId, body, emailMessageId }).returning({ id: messages.id, seq: messages.seq });
    await insertAttachments(tx, row!.id, attachments);
    const mark = party.role === "digger" ? { diggerReadSeq: row!.seq, diggerReadAt: sql`now()` } : { clientReadSeq: row!.seq, clientReadAt: sql`now()` };
    await tx
      .update(threads)
      .set({ lastMessageSeq: sql`greatest(${threads.lastMessageSeq}, ${row!.seq})`, lastActivityAt: sql`now()`, ...mark })
      .where(eq(threads.id, party.id));
    const sent = { id: row!.id, seq: row!.seq, threadId: party.id, senderId: userId, recipientId: party.otherId };
    await messageSent(services, tx, sent);
    return sent;
  });
}

/** A suspended sender, a deleted recipient, or a block either way: the message is refused. */
async function refuseUnsendable(tx: Transaction, party: ThreadParty): Promise<void> {
  const people = await tx
    .select({ id: users.id, deletedAt: users.deletedAt, suspendedAt: users.suspendedAt })
    .from(users)
    .where(or(eq(users.id, party.userId), eq(users.id, party.otherId)))
    .for("share");
  const me = people.find((p) => p.id === party.userId);
  const other = people.find((p) => p.id === party.otherId);
  if (!me || me.deletedAt !== null || me.suspendedAt !== null) throw new AppError("forbidden", MESSAGE_TEXTS.suspended);
  if (!other || other.deletedAt !== null) throw new AppError("conflict", MESSAGE_TEXTS.notSent);
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
  if (block) throw new AppError("forbidden", MESSAGE_TEXTS.notSent);
}
