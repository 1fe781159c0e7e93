/**
 * A reply by e-mail, once parsed, posted to its thread (decision 0048): only when the header
 * From is the recipient's own address (the token is the real key; this only keeps a leaked
 * address from being used by someone else's mailbox), never an automatic reply, with the quoted
 * history and the signature removed (email-reply-parser, without its optional native re2), and
 * through `sendMessage`, the web form's own code: its limits, blocks and suspension rules. An
 * empty reply is dropped; the e-mail's Message-ID posts once per thread (a unique index), and
 * the same text from the same sender once in 10 minutes (a replay under a new Message-ID).
 * A reply to a dead address (expired, or from before addresses carried a day) is not posted.
 * Its attached files go with it under the web form's rules (JPEG, PNG, WebP or PDF by their
 * bytes, 10 MB each, the first 5); a file outside them, and an image the HTML shows inline (a
 * signature's logo), is left out rather than refusing the reply's words.
 */
import EmailReplyParser from "email-reply-parser";
import type { Attachment, Email } from "postal-mime";
import { firstMessage } from "#core/forms.ts";
import { MAX_ATTACHMENTS } from "#core/message-attachments.ts";
import { messageSchema } from "#core/messages.ts";
import { eq } from "drizzle-orm";
import { isUniqueViolation } from "../../db/errors.ts";
import { gigs, leadPurchases, threads } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { AppServices } from "../../context.ts";
import { discardFiles } from "../../storage/storage.ts";
import { storeAttachment, type StoredAttachment } from "../attachments.ts";
import { RepeatedMessage, sendMessage } from "../send-message.ts";
import type { ReplyRecipient } from "../../mail/reply-address.ts";

/** The same text from the same sender in the thread within this time is dropped: a replay under a new Message-ID. */
const REPEAT_WINDOW_SECONDS = 10 * 60;

export type ReplyOutcome =
  | { kind: "posted"; messageId: string }
  /**
   * Taken and not posted: empty, automatic, an e-mail already posted to the thread (its
   * Message-ID), the same text a moment ago, or to a dead address (the sender is told by e-mail).
   */
  | { kind: "dropped"; reason: "empty" | "automatic" | "duplicate" | "repeated" | "expired" }
  /** Not taken: `permanent` ones are not to be tried again (SMTP 5xx), the others later (4xx). */
  | { kind: "refused"; permanent: boolean; text: string };

/** The text a reply adds: its own words, without the quoted history nor the signature. */
function replyText(email: Pick<Email, "text">): string {
  return new EmailReplyParser().parseReply(email.text ?? "").trim();
}

/** An out-of-office answer or a bounce (RFC 3834): never posted as the person's words. */
function isAutomatic(email: Pick<Email, "headers">): boolean {
  const header = (key: string) => email.headers.find((h) => h.key === key)?.value.trim().toLowerCase();
  const submitted = header("auto-submitted");
  return (submitted !== undefined && submitted !== "no") || header("x-autoreply") !== undefined || /^(auto_reply|bulk|junk)$/.test(header("precedence") ?? "");
}

/** The mailbox the header From names, lower-cased; null for none or a group. */
export function headerFrom(email: Pick<Email, "from">): string | null {
  return email.from?.address ? email.from.address.trim().toLowerCase() : null;
}

/** The reply's files the thread takes, stored; the others are left out (see above). */
async function storedFiles(storage: AppServices["storage"], attachments: Attachment[]): Promise<StoredAttachment[]> {
  const stored: StoredAttachment[] = [];
  try {
    for (const file of attachments) {
      if (stored.length === MAX_ATTACHMENTS) break;
      if (file.related || file.disposition === "inline" || typeof file.content === "string" || file.content instanceof Uint8Array) continue;
      const kept = await storeAttachment(storage, file.filename ?? "attachment", Buffer.from(file.content as ArrayBuffer), file.mimeType).catch((error: unknown) => {
        if (error instanceof AppError) return null;
        throw error;
      });
      if (kept) stored.push(kept);
    }
  } catch (error) {
    await discardFiles(storage, stored);
    throw error;
  }
  return stored;
}

/**
 * A reply to a dead address is never posted: its party is told by e-mail to answer in the
 * product, with the thread's link, at most once a day per thread (a stranger replaying an old
 * address cannot fill their mailbox). The e-mail goes to the account's own address.
 */
async function answerDeadAddress(services: Pick<AppServices, "db" | "rateLimits" | "emit">, recipient: ReplyRecipient): Promise<void> {
  if (!(await services.rateLimits.deadReplyNotices.take(`${recipient.threadId}:${recipient.userId}`))) return;
  const [thread] = await services.db
    .select({ gigTitle: gigs.title })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .where(eq(threads.id, recipient.threadId));
  if (thread) await services.emit(services.db, { kind: "message.reply-expired", threadId: recipient.threadId, userId: recipient.userId, gigTitle: thread.gigTitle });
}

export async function postReply(
  services: Pick<AppServices, "db" | "rateLimits" | "jobs" | "storage" | "emit">,
  recipient: ReplyRecipient,
  email: Pick<Email, "text" | "headers" | "messageId"> & Partial<Pick<Email, "attachments">>,
): Promise<ReplyOutcome> {
  // An out-of-office answer to a dead address gets no e-mail back either: two robots would talk forever.
  if (isAutomatic(email)) return { kind: "dropped", reason: "automatic" };
  if (recipient.expired) {
    await answerDeadAddress(services, recipient);
    return { kind: "dropped", reason: "expired" };
  }
  const text = replyText(email);
  if (text === "") return { kind: "dropped", reason: "empty" };
  // The thread form's schema and words (too long), before any file is stored.
  const message = messageSchema.safeParse({ body: text });
  if (!message.success) return { kind: "refused", permanent: true, text: firstMessage(message.error) };
  const emailMessageId = email.messageId?.trim().slice(0, 998) || null;
  // sendMessage deletes the stored files again when the message is not written.
  const attachments = await storedFiles(services.storage, email.attachments ?? []);
  try {
    const sent = await sendMessage(services, recipient.userId, recipient.threadId, message.data, { emailMessageId, attachments, repeatWindowSeconds: REPEAT_WINDOW_SECONDS });
    return { kind: "posted", messageId: sent.id };
  } catch (error) {
    if (isUniqueViolation(error, "messages_email_message_key")) return { kind: "dropped", reason: "duplicate" };
    if (error instanceof RepeatedMessage) return { kind: "dropped", reason: "repeated" };
    if (!(error instanceof AppError)) throw error;
    // Too fast: the sender's server tries again later. The rest (suspended, blocked) stays refused.
    const permanent = error.code !== "too_many_requests" && error.code !== "unavailable";
    return { kind: "refused", permanent, text: error.message };
  }
}
