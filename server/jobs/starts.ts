/**
 * The jobs events start (their declarations' `jobs`, server/events/registry.ts), made here,
 * below the areas that run them, so the registry imports no area.
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { ISSUE_REMINDER_HOURS_BEFORE } from "#core/lead-issues.ts";
import { REVIEW_REMINDER_DAYS } from "#core/two-way-reviews.ts";
import type { VisitReminderKind } from "#core/visits.ts";
import { queryRows, type Transaction } from "../db/client.ts";
import { gigs, messageNotices } from "../db/schema.ts";
import type { JobStart } from "./queue.ts";

/** The `alerts.gig` job of a gig that became visible (server/alerts/fan-out.ts runs it). */
export const leadAlertsJob = (gig: { id: string }): JobStart & { name: "alerts.gig" } => ({ name: "alerts.gig", data: { gigId: gig.id } });

/**
 * The `alerts.gig` jobs of a client's open, published gigs: after they confirmed their e-mail
 * (which published them), the event "account.email-confirmed" starts them.
 */
export async function clientGigAlertJobs(tx: Transaction, clientId: string): Promise<JobStart[]> {
  const visible = await tx
    .select({ id: gigs.id })
    .from(gigs)
    .where(and(eq(gigs.clientId, clientId), eq(gigs.status, "open"), eq(gigs.published, true)));
  return visible.map(leadAlertsJob);
}

/**
 * The `alerts.gig` jobs of a client's open, published gigs whose phone `phone` they just
 * verified (the event "phone.verified", issue 49): the diggers who want only gigs with a verified
 * phone were left out when the gig was posted. A digger once alerted is not told again.
 */
export async function verifiedPhoneAlertJobs(tx: Transaction, clientId: string, phone: string): Promise<JobStart[]> {
  const verified = await tx
    .select({ id: gigs.id })
    .from(gigs)
    .where(
      and(eq(gigs.clientId, clientId), eq(gigs.contactPhone, phone), isNotNull(gigs.phoneVerifiedAt), eq(gigs.status, "open"), eq(gigs.published, true)),
    );
  return verified.map(leadAlertsJob);
}

/**
 * The `alerts.gig` job of a gig whose last hire was removed (the event "hire.removed"): no hire
 * holds it off sale any more (gigs.hired, kept by migration 0050's trigger in the same
 * transaction). The job asks the whole rule when it runs; a digger once alerted is not told again.
 */
export async function backOnSaleJobs(tx: Transaction, gigId: string): Promise<JobStart[]> {
  const back = await tx
    .select({ id: gigs.id })
    .from(gigs)
    .where(and(eq(gigs.id, gigId), eq(gigs.hired, false), eq(gigs.status, "open"), eq(gigs.published, true)));
  return back.map(leadAlertsJob);
}

/** The `refund.send` job of refund `refundId` (server/leads/refunds.ts; an operator's retry starts it at once). */
export function refundJob(refundId: string, startAfterSeconds?: number): JobStart & { name: "refund.send" } {
  return { name: "refund.send", data: { refundId }, startAfterSeconds };
}

/**
 * The `issues.remind` job of a new issue, a day before its deadline (the event
 * "issue.reported" starts it; server/leads/issue-deadlines.ts runs it); none with a window of a
 * day or less: the report's own e-mail is the reminder.
 */
export function issueReminderJob(issueId: string, responseHours: number): JobStart[] {
  if (responseHours <= ISSUE_REMINDER_HOURS_BEFORE) return [];
  return [{ name: "issues.remind", data: { issueId }, startAfterSeconds: (responseHours - ISSUE_REMINDER_HOURS_BEFORE) * 3600 }];
}

/** The `refund.send` job of a refund just recorded: the request tries at once, the job a minute later (server/leads/refunds.ts). */
export const REFUND_RETRY_AFTER_SECONDS = 60;

/** A message unread this long is told of (server/conversations/message-notices.ts runs the job). */
const MESSAGE_NOTICE_DELAY_SECONDS = 5 * 60;

/**
 * The `messages.notify` job of a message to `userId` in a thread, 5 minutes after it was sent
 * (`sentSecondsAgo`: the recipient is told of it by a job just after the send, decision 0078),
 * unless one is pending for them already: the `message_notices` row's `pending`, taken under
 * the row's lock (docs/decisions/0038-conversations.md, "Notifications").
 */
export async function messageNoticeJobs(tx: Transaction, threadId: string, userId: string, sentSecondsAgo = 0): Promise<JobStart[]> {
  const claimed = await tx
    .insert(messageNotices)
    .values({ threadId, userId, pending: true })
    .onConflictDoUpdate({ target: [messageNotices.threadId, messageNotices.userId], set: { pending: true }, setWhere: sql`${messageNotices.pending} = false` })
    .returning({ userId: messageNotices.userId });
  const wait = Math.max(0, Math.ceil(MESSAGE_NOTICE_DELAY_SECONDS - sentSecondsAgo));
  return claimed.length > 0 ? [{ name: "messages.notify", data: { threadId, userId }, startAfterSeconds: wait }] : [];
}

/** A purchase its digger's first answer just covered: the guarantee falls due at `dueAt` (lead_purchases.guarantee_due_at). */
export interface JustCovered {
  purchaseId: string;
  dueAt: Date;
}

/** The check starts this long after a guarantee falls due: the server's clock may trail the database's a little. */
const GUARANTEE_CHECK_SLACK_SECONDS = 30;

/**
 * The `guarantee.check` job of a purchase that its digger's first answer just covered (the
 * events "message.sent" and "quote.sent" carry `guarantee` then), at its due time; one per
 * purchase (the queue's singleton key). server/leads/settle-guarantee.ts runs it; the
 * `guarantee.sweep` schedule settles anything it missed.
 */
export function guaranteeCheckJobs(guarantee: JustCovered | undefined): JobStart[] {
  if (!guarantee) return [];
  const wait = Math.max(0, Math.ceil((guarantee.dueAt.getTime() - Date.now()) / 1000)) + GUARANTEE_CHECK_SLACK_SECONDS;
  return [{ name: "guarantee.check", data: { purchaseId: guarantee.purchaseId }, startAfterSeconds: wait }];
}

/**
 * A reminder's due time as the job carries it: the database's instant to the microsecond, in UTC
 * (2027-03-13T15:00:00.000000Z), so the job's claim compares it exactly (`due_at = $3`).
 */
export const REMINDER_DUE_TEXT = sql`to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The `visit.remind` jobs of a visit just booked or moved (the event "visit.booked"): one per
 * unsent reminder row, which the trigger on `visits` wrote or moved in this transaction, started
 * for its due time. A job whose row moved or went meanwhile finds nothing to send
 * (server/conversations/visits/send-reminder.ts); the `visit.reminders-sweep` schedule sends what
 * a job missed.
 */
export async function visitReminderJobs(tx: Transaction, visitId: string): Promise<JobStart[]> {
  const due = await queryRows<{ kind: VisitReminderKind; dueAt: string; wait: number }>(
    tx,
    sql`select kind, ${REMINDER_DUE_TEXT} as "dueAt", greatest(0, ceil(extract(epoch from due_at - now())))::int as wait
        from visit_reminders where visit_id = ${visitId} and sent_at is null order by due_at`,
  );
  return due.map((row) => ({ name: "visit.remind", data: { visitId, kind: row.kind, dueAt: row.dueAt }, startAfterSeconds: row.wait }));
}

/** The publishing job starts this long after a window's end: the server's clock may trail the database's a little. */
const REVIEW_PUBLISH_SLACK_SECONDS = 30;

/**
 * The jobs of a hire's review window just opened (the event "review.window-opened", issue 51):
 * `reviews.remind` REVIEW_REMINDER_DAYS before its end and `reviews.publish` just after it, one
 * each per window (the queue's singleton keys). server/reviews/review-window-jobs.ts runs them;
 * the `reviews.sweep` schedule does what they missed.
 */
export function reviewWindowJobs(window: { gigId: string; diggerId: string; endsAt: string }): JobStart[] {
  const data = { gigId: window.gigId, diggerId: window.diggerId, endsAt: window.endsAt };
  const untilEnd = Math.ceil((new Date(window.endsAt).getTime() - Date.now()) / 1000);
  return [
    { name: "reviews.remind", data, startAfterSeconds: Math.max(0, untilEnd - REVIEW_REMINDER_DAYS * 86_400) },
    { name: "reviews.publish", data, startAfterSeconds: Math.max(0, untilEnd) + REVIEW_PUBLISH_SLACK_SECONDS },
  ];
}
