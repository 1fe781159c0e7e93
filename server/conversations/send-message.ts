/**
 * Sending a message: text of 1 to 5,000 characters, by a party of the thread, at most 30 a
 * minute and 500 a day per user (counted by every server alike), never to or from someone who
 * blocked the other, never by a suspended account, never to a deleted one. The sender's limits'
 * count, the message, the thread's activity and the sender's own read mark are written in one
 * transaction, with the event "message.sent" (`messageSent`): the one place a message's
 * consequences go. docs/decisions/0078-sends-in-100-ms.md and 0084: what the send waits for,
 * and what follows it.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import { MESSAGE_TEXTS, messageSchema } from "#core/messages.ts";
import type { Transaction } from "../db/client.ts";
import { messages } from "../db/schema.ts";
import { placeholder, preparedRows } from "../db/prepared.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { defineOperation } from "../operation.ts";
import type { JustCovered } from "../jobs/starts.ts";
import { coveredOf, justCoveredColumn } from "./first-answer.ts";
import { THREAD, threadParty, type ThreadParty } from "./access.ts";
import { takeMessageLimits } from "./message-limits.ts";
import { lockedThreadStanding, type PartyStanding } from "./party-standing.ts";
import { discardFiles } from "../storage/storage.ts";
import { asAttachments, insertAttachments, type StoredAttachment } from "./attachments.ts";

export interface SentMessage {
  id: string;
  seq: number;
  threadId: string;
  senderId: string;
  recipientId: string;
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
  /**
   * A reply by e-mail (inbound/): the same text from the same sender in the thread within this
   * many seconds is not written again (`RepeatedMessage`), whatever its Message-ID. Checked
   * under the thread's lock, so two deliveries at once write one.
   */
  repeatWindowSeconds?: number;
}

/** The text is the sender's own last words in the thread a moment ago (MessageExtras.repeatWindowSeconds). */
export class RepeatedMessage extends Error {
  constructor() {
    super("the same text was sent to the thread a moment ago");
  }
}

/** A message's text, as `messageSchema` parsed it (the thread's form, a reply by e-mail). */
export type MessageInput = z.output<typeof messageSchema>;

/**
 * `thread`: the thread's id, or the party THREAD's access already resolved for this user (the
 * thread's form: its party check is not asked twice).
 */
export async function sendMessage(
  services: Pick<AppServices, "db" | "storage" | "emit">,
  userId: string,
  thread: string | ThreadParty,
  message: MessageInput,
  extras: MessageExtras = {},
): Promise<SentMessage> {
  const attachments = extras.attachments ?? [];
  try {
    return await writeMessage(services, userId, thread, message, attachments, extras);
  } catch (error) {
    await discardFiles(services.storage, attachments);
    throw error;
  }
}

async function writeMessage(
  services: Pick<AppServices, "db" | "emit">,
  userId: string,
  thread: string | ThreadParty,
  { body }: MessageInput,
  attachments: StoredAttachment[],
  { emailMessageId = null, repeatWindowSeconds }: MessageExtras,
): Promise<SentMessage> {
  const { db } = services;
  // A thread of theirs first: nobody else learns that it exists.
  const threadId = typeof thread === "string" ? (await threadParty(db, userId, thread)).id : thread.id;
  return db.transaction(async (tx) => {
    // Counted with the message (message-limits.ts): a send refused for any reason counts nothing.
    if (!(await takeMessageLimits(tx, userId))) throw new AppError("too_many_requests", MESSAGE_TEXTS.tooFast);
    // The thread's row is locked from here to the commit, and every sender of the thread waits
    // for it: what is done under it is as few round trips as the message's order needs (issue 52).
    const locked = await lockedThreadStanding(tx, userId, threadId);
    if (!locked) throw new AppError("not_found", "Page not found");
    const { party, standing } = locked;
    refuseUnsendable(standing);
    if (repeatWindowSeconds !== undefined) {
      const [repeated] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.threadId, party.id),
            eq(messages.senderId, userId),
            eq(messages.body, body),
            gt(messages.createdAt, sql`now() - make_interval(secs => ${repeatWindowSeconds})`),
          ),
        )
        .limit(1);
      if (repeated) throw new RepeatedMessage();
    }
    const [row] = await insertMessage(tx, undefined, { threadId: party.id, senderId: userId, body, emailMessageId });
    await insertAttachments(tx, row!.id, attachments);
    // The insert's trigger (migration 0052) counted the message on this row: whether it was the
    // digger's first answer that covered the purchase is read back with the update.
    const [updated] = await markThreadSent(tx, { role: party.role }, { threadId: party.id, seq: row!.seq, userId });
    const sent = { id: row!.id, seq: Number(row!.seq), threadId: party.id, senderId: userId, recipientId: party.otherId };
    await messageSent(services, tx, sent, coveredOf(updated?.covered ?? null));
    return sent;
  });
}

/** The message's row (prepared: server/db/prepared.ts, issue 52). */
const insertMessage = preparedRows<{ id: string; seq: string | number }>(
  "send_message_insert",
  () => sql`insert into messages (thread_id, sender_id, body, email_message_id)
    values (${placeholder("threadId")}, ${placeholder("senderId")}, ${placeholder("body")}, ${placeholder("emailMessageId")}) returning id, seq`,
);

/** The thread's last message and activity, and the sender's own read mark (their role's columns: the shape). */
const markThreadSent = preparedRows<{ covered: Parameters<typeof coveredOf>[0] }, { role: ThreadParty["role"] }>(
  "send_message_thread",
  ({ role }) => sql`update threads set last_message_seq = greatest(last_message_seq, ${placeholder("seq")}), last_activity_at = now(),
      ${role === "digger" ? sql`digger_read_seq = ${placeholder("seq")}, digger_read_at = now()` : sql`client_read_seq = ${placeholder("seq")}, client_read_at = now()`}
    where id = ${placeholder("threadId")}
    returning ${justCoveredColumn(placeholder("userId"))} as covered`,
);

/**
 * What follows a written message, in its transaction: one event, "message.sent"
 * (server/events/registry.ts). Both parties' open pages hear of it at the commit; the digger's
 * first answer starts the reply guarantee's check (first-answer.ts); the recipient's push and
 * notice follow from the `messages.tell` job it starts (push-notice.ts), which the sender does
 * not wait for (decision 0078).
 */
async function messageSent(services: Pick<AppServices, "emit">, tx: Transaction, message: SentMessage, guarantee: JustCovered | undefined): Promise<void> {
  await services.emit(tx, {
    kind: "message.sent",
    messageId: message.id,
    threadId: message.threadId,
    senderUserId: message.senderId,
    recipientUserId: message.recipientId,
    guarantee,
  });
}

/** A suspended sender, a deleted recipient, or a block either way: the message is refused. */
function refuseUnsendable(standing: PartyStanding): void {
  if (standing.meDeleted) throw new AppError("forbidden", MESSAGE_TEXTS.deleted);
  if (standing.meSuspended) throw new AppError("forbidden", MESSAGE_TEXTS.suspended);
  if (standing.otherGone) throw new AppError("conflict", MESSAGE_TEXTS.notSent);
  if (standing.blocked) throw new AppError("forbidden", MESSAGE_TEXTS.notSent);
}

/** Send, in the thread's form: the text (`messageSchema`) and the files the form reader stored; `js` when the page's script sent it. */
export const sendInThread = defineOperation({
  access: THREAD,
  input: messageSchema.extend({ js: z.string().optional() }),
  async run({ services, user, thread, files, input }) {
    const sent = await sendMessage(services, user.id, thread, { body: input.body }, { attachments: asAttachments(files) });
    return { id: sent.id, threadId: sent.threadId, js: input.js === "1" };
  },
});
