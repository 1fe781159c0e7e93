/**
 * What runs each job of the queue (jobs/queue.ts), wired here at the top so that no job folder imports the areas. A server process calls `startJobs` once;
 * pg-boss hands every job to one worker across all processes and retries a failed one.
 */
import { sendDailyDigests } from "./alerts/digest.ts";
import { deliverLeadAlertBatch, fanOutLeadAlerts } from "./alerts/fan-out.ts";
import { lapseExpiredCredentials } from "./ops/credential-review.ts";
import { autoApproveOverdueIssues, remindClient } from "./leads/issue-deadlines.ts";
import { sendRefundJob } from "./leads/refunds.ts";
import { settleGuarantee, sweepDueGuarantees } from "./leads/settle-guarantee.ts";
import { pruneNoticeSends } from "./events/notice-sends.ts";
import { notifyUnreadMessages } from "./conversations/message-notices.ts";
import { sweepUntoldMessages, tellOfMessage, type UntoldRow } from "./conversations/push-notice.ts";
import { sendVisitReminder, sweepDueVisitReminders } from "./conversations/visits/send-reminder.ts";
import { purgeDeletedAccounts } from "./privacy/purge.ts";
import { publishDueWindow, remindDueWindow, sweepReviewWindows } from "./reviews/review-window-jobs.ts";
import { deliverPushes, purgeStalePushes } from "./push/send.ts";
import type { AppServices } from "./context.ts";

export async function startJobs(services: AppServices): Promise<void> {
  const log = services.logger.child({ component: "jobs" });
  // Where this process's next tell sweep begins (push-notice.ts, `resumeAfter`).
  let sweepResumesAfter: UntoldRow | null = null;
  // Every scrape of /metrics counts the queues: waiting, running, failed for good.
  services.metrics.registerJobQueue(() => services.jobs.depth());
  await services.jobs.work({
    "email.deliver": (batch) => services.mailer.deliver(batch.map((job) => job.emailId)),
    "refund.send": ({ refundId }) => sendRefundJob(services, refundId),
    "accounts.purge": async () => {
      const purged = await purgeDeletedAccounts(services);
      if (purged > 0) log.info({ purged }, "purged deleted accounts");
      if (purged > 0) services.pageCache.invalidate();
    },
    "issues.auto-approve": async () => {
      const approved = await autoApproveOverdueIssues(services);
      if (approved > 0) log.info({ approved }, "approved overdue lead issues automatically");
    },
    "issues.remind": async ({ issueId }) => {
      await remindClient(services, issueId);
    },
    "alerts.gig": async ({ gigId }) => {
      await fanOutLeadAlerts(services, gigId);
    },
    "alerts.deliver": async ({ gigId, diggerIds }) => {
      await deliverLeadAlertBatch(services, gigId, diggerIds);
    },
    "alerts.digest": async () => {
      const sent = await sendDailyDigests(services);
      log.info({ sent }, "daily lead-alert digests sent");
    },
    "credentials.lapse": async () => {
      const lapsed = await lapseExpiredCredentials(services);
      log.info({ lapsed }, "lapsed expired credential verifications");
      if (lapsed > 0) services.pageCache.invalidate();
    },
    "messages.notify": async ({ threadId, userId }) => {
      await notifyUnreadMessages(services, threadId, userId);
    },
    "messages.tell": async ({ messageId }) => {
      await tellOfMessage(services, messageId);
    },
    // The safety net behind it (decision 0082): the messages whose job failed for good or is gone.
    "messages.tell-sweep": async () => {
      const swept = await sweepUntoldMessages(services, (messageId, err) => log.warn({ err, messageId }, "telling of a message failed in the sweep"), sweepResumesAfter);
      sweepResumesAfter = swept.resumeAfter;
      if (swept.told > 0 || swept.failed > 0) log.info({ told: swept.told, failed: swept.failed }, "told of messages whose job had not");
    },
    "push.send": (batch) => deliverPushes(services, batch.map((job) => job.pushId)),
    "push.purge": async () => {
      const purged = await purgeStalePushes(services.db);
      if (purged > 0) log.info({ purged }, "deleted pushes that reached no device within a day");
    },
    // The reply guarantee (issue 48): each settlement also pauses a lead nobody can reach (leads/pause-gig.ts).
    "guarantee.check": async ({ purchaseId }) => {
      const settled = await settleGuarantee(services, purchaseId);
      if (settled) log.info({ purchaseId, outcome: settled.outcome }, "settled a reply guarantee");
    },
    "guarantee.sweep": async () => {
      const settled = await sweepDueGuarantees(services);
      if (Object.keys(settled).length > 0) log.info({ settled }, "settled due reply guarantees");
    },
    // Site visits' reminders (issue 50): each at its due time, and the sweep behind them.
    "visit.remind": async ({ visitId, kind, dueAt }) => {
      const outcome = await sendVisitReminder(services, visitId, kind, dueAt);
      if (outcome) log.info({ visitId, kind, outcome }, "visit reminder claimed");
    },
    "visit.reminders-sweep": async () => {
      const sent = await sweepDueVisitReminders(services);
      if (sent > 0) log.info({ sent }, "sent overdue visit reminders");
    },
    // Two-way reviews (issue 51): a window's end and its reminder, and the sweep behind them.
    "reviews.publish": async ({ gigId, diggerId }) => {
      if (await publishDueWindow(services, gigId, diggerId)) {
        log.info({ gigId, diggerId }, "published a review window at its end");
        services.pageCache.invalidate();
      }
    },
    "reviews.remind": async ({ gigId, diggerId }) => {
      const outcome = await remindDueWindow(services, gigId, diggerId);
      if (outcome) log.info({ gigId, diggerId, outcome }, "review reminder claimed");
    },
    "reviews.sweep": async () => {
      const swept = await sweepReviewWindows(services);
      if (swept.published > 0 || swept.reminded > 0) log.info(swept, "published or reminded overdue review windows");
      if (swept.published > 0) services.pageCache.invalidate();
    },
    "notices.prune": async () => {
      const pruned = await pruneNoticeSends(services.db);
      if (pruned > 0) log.info({ pruned }, "deleted notice times older than their 24-hour window");
    },
  });
}
