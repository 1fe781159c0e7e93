/**
 * Telling a party of unread messages (issue 32; docs/decisions/0038-conversations.md,
 * "Notifications"). The `messages.tell` job that follows a sent message (push-notice.ts, decision
 * 0078) schedules one `messages.notify` job 5 minutes after the message for the thread and its
 * recipient, unless one is already pending for them (jobs/starts.ts's `messageNoticeJobs`). When
 * the job runs:
 * - the recipient has read up to the last message: nothing;
 * - an e-mail about this thread went to them less than 30 minutes ago: nothing now, and the
 *   job runs again at the window's end ("message.notice-deferred"), summing up what came meanwhile;
 * - otherwise the event "message.received": the bell's entry (one per run of unread messages)
 *   and, when their How to reach me choice for New messages has E-mail on, the e-mail: the newest
 *   unread message's text, how many more are unread, a link to the thread, a one-click unsubscribe.
 * A deleted or suspended recipient is told nothing.
 */
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { partyName } from "#core/messages.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases, messageNotices, messages, threads, users } from "../db/schema.ts";
import type { AppServices } from "../context.ts";

/** At most one e-mail per thread and recipient in this window. */
const EMAIL_WINDOW_SECONDS = 30 * 60;

export type NoticeOutcome = "none" | "later" | "bell" | "emailed";

/** The `messages.notify` job: tells `userId` of the thread's unread messages, or waits for the window's end. */
export async function notifyUnreadMessages(services: Pick<AppServices, "db" | "emit">, threadId: string, userId: string): Promise<NoticeOutcome> {
  return services.db.transaction(async (tx) => {
    const [notice] = await tx
      .select({ pending: messageNotices.pending, waitSeconds: sql<number | null>`extract(epoch from ${messageNotices.emailedAt} + make_interval(secs => ${EMAIL_WINDOW_SECONDS}) - now())::float8` })
      .from(messageNotices)
      .where(and(eq(messageNotices.threadId, threadId), eq(messageNotices.userId, userId)))
      .for("update");
    if (!notice?.pending) return "none";
    const done = () => tx.update(messageNotices).set({ pending: false }).where(and(eq(messageNotices.threadId, threadId), eq(messageNotices.userId, userId)));

    const [thread] = await tx
      .select({ diggerUserId: threads.diggerUserId, clientId: threads.clientId, diggerReadSeq: threads.diggerReadSeq, clientReadSeq: threads.clientReadSeq, gigTitle: gigs.title })
      .from(threads)
      .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
      .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
      .where(eq(threads.id, threadId));
    const isDigger = thread?.diggerUserId === userId;
    if (!thread || (!isDigger && thread.clientId !== userId)) {
      await done();
      return "none";
    }
    const readSeq = isDigger ? thread.diggerReadSeq : thread.clientReadSeq;
    const unread = await tx
      .select({ id: messages.id, body: messages.body, senderId: messages.senderId })
      .from(messages)
      .where(and(eq(messages.threadId, threadId), gt(messages.seq, readSeq), ne(messages.senderId, userId), isNull(messages.hiddenAt), isNull(messages.deletedAt)))
      .orderBy(desc(messages.seq));
    if (unread.length === 0) {
      await done();
      return "none";
    }
    if (notice.waitSeconds !== null && notice.waitSeconds > 0) {
      // Still pending: this job's successor, at the window's end, sums up what came meanwhile.
      await services.emit(tx, { kind: "message.notice-deferred", threadId, userId, afterSeconds: Math.ceil(notice.waitSeconds) });
      return "later";
    }
    await done();

    const [recipient] = await tx
      .select({ email: users.email, replyKeyGeneration: users.replyKeyGeneration, deletedAt: users.deletedAt, suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, userId));
    if (!recipient || recipient.deletedAt !== null || recipient.suspendedAt !== null) return "none";

    const newest = unread[0]!;
    const oldest = unread[unread.length - 1]!;
    const senderName = await senderNameOf(tx, newest.senderId, isDigger ? "client" : "digger");
    // The bell's entry and, by their How to reach me choice for New messages, the e-mail (server/events/registry.ts).
    const {
      emailIds: [emailId],
    } = await services.emit(tx, {
      kind: "message.received",
      threadId,
      firstUnreadId: oldest.id,
      recipientUserId: userId,
      recipientEmail: recipient.email,
      recipientReplyKeyGeneration: recipient.replyKeyGeneration,
      senderName,
      gigTitle: thread.gigTitle,
      text: newest.body,
      unread: unread.length,
    });
    if (!emailId) return "bell";
    await tx
      .update(messageNotices)
      .set({ emailedAt: sql`now()` })
      .where(and(eq(messageNotices.threadId, threadId), eq(messageNotices.userId, userId)));
    return "emailed";
  });
}

/** How the sender is named to the recipient, as in the thread (core/messages.ts `partyName`). */
async function senderNameOf(tx: Transaction, senderId: string, role: "digger" | "client"): Promise<string> {
  const [sender] = await tx
    .select({ fullName: users.name, deletedAt: users.deletedAt, handle: diggerProfiles.handle })
    .from(users)
    .leftJoin(diggerProfiles, eq(diggerProfiles.userId, users.id))
    .where(eq(users.id, senderId));
  return partyName({ role, deleted: !sender || sender.deletedAt !== null, handle: sender?.handle ?? null, fullName: sender?.fullName ?? null });
}
