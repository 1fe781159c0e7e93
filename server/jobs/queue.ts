/**
 * The one job queue (docs/decisions/0017-job-queue.md): pg-boss in the application's own
 * database, so a job is enqueued in the same transaction as the rows it is about, runs once
 * across any number of servers, is retried with backoff, and a job that keeps failing is
 * kept in the `failed` state for an operator to see. On the embedded PGlite the same
 * library runs in-process through its PGlite adapter.
 *
 * Every queue, its data and its retry policy are declared here; the handlers are wired in
 * `server/workers.ts`, so enqueueing code never imports the code that runs the job.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { fromPglite, PgBoss, type Db, type Job, type Queue } from "pg-boss";
import type { VisitReminderKind } from "#core/visits.ts";
import { queryRows, type DatabaseHandle, type Transaction } from "../db/client.ts";
import type { Logger } from "../logger.ts";

/** What each job carries: ids, never personal data (the job table outlives deletions). */
export interface JobData {
  /** Deliver one recorded e-mail (mail/mailer.ts). */
  "email.deliver": { emailId: string };
  /** Ask the payment provider for one recorded refund, until it confirms (leads/refunds.ts). */
  "refund.send": { refundId: string };
  /** Purge the personal data of accounts deleted long enough ago (privacy/purge.ts). */
  "accounts.purge": Record<string, never>;
  /** Approve the pending lead issues whose client did not respond in time (leads/issue-deadlines.ts). */
  "issues.auto-approve": Record<string, never>;
  /** Remind the client of one pending lead issue, a day before its deadline (leads/issue-deadlines.ts). */
  "issues.remind": { issueId: string };
  /** A gig became visible: find the diggers whose instant lead alerts match it (alerts/fan-out.ts). */
  "alerts.gig": { gigId: string };
  /** Send one batch of a gig's instant lead alerts, to these digger profiles (alerts/fan-out.ts). */
  "alerts.deliver": { gigId: string; diggerIds: string[] };
  /** The daily lead-alert digest, at DIGEST_HOUR in the server's time zone (alerts/digest.ts). */
  "alerts.digest": Record<string, never>;
  /** End the credential verifications whose date has passed (ops/credential-review.ts). */
  "credentials.lapse": Record<string, never>;
  /** Tell one party of a thread of its unread messages, 5 minutes on (conversations/message-notices.ts). */
  "messages.notify": { threadId: string; userId: string };
  /** Tell a sent message's recipient of it, just after the send: the push and the notice's scheduling (conversations/push-notice.ts). */
  "messages.tell": { messageId: string };
  /** Tell of the messages whose `messages.tell` failed for good or is gone, 5 minutes to 6 hours old: its safety net (conversations/push-notice.ts). */
  "messages.tell-sweep": Record<string, never>;
  /** Push one recorded notification to its device (push/send.ts; the `pushes` row, decision 0052). */
  "push.send": { pushId: string };
  /** Delete the pushes a day old that never reached their device (push/send.ts). */
  "push.purge": Record<string, never>;
  /** Delete the `notice_sends` rows older than the 24-hour window they guard (events/notify.ts). */
  "notices.prune": Record<string, never>;
  /** Settle one purchase's reply guarantee when it falls due, started by its digger's first answer (leads/settle-guarantee.ts). */
  "guarantee.check": { purchaseId: string };
  /** Settle every purchase whose reply guarantee is due: the safety net behind `guarantee.check` (leads/settle-guarantee.ts). */
  "guarantee.sweep": Record<string, never>;
  /**
   * Send one reminder of a booked visit at its due time (conversations/visits/send-reminder.ts), only
   * if its row is still due at `dueAt` (an instant in microseconds, as the database holds it) and unsent.
   */
  "visit.remind": { visitId: string; kind: VisitReminderKind; dueAt: string };
  /** Send every visit reminder overdue by a couple of minutes and unsent: the safety net behind `visit.remind`. */
  "visit.reminders-sweep": Record<string, never>;
  /**
   * Publish the blind review window of (gig, digger) once its end `endsAt` has passed, and tell both
   * parties (reviews/review-window-jobs.ts). `endsAt` (ISO) names the window: a re-hire of the pair
   * opens another, whose job must not be taken for the old one's by the singleton key.
   */
  "reviews.publish": { gigId: string; diggerId: string; endsAt: string };
  /** REVIEW_REMINDER_DAYS before that end: remind the side that has not reviewed, once (reviews/review-window-jobs.ts). */
  "reviews.remind": { gigId: string; diggerId: string; endsAt: string };
  /** Publish and remind what is overdue by a couple of minutes: the safety net behind the two above. */
  "reviews.sweep": Record<string, never>;
}
export type JobName = keyof JobData;

/** One job to enqueue: its name, its data, and how long it waits (an event's `jobs`, server/events/). */
export type JobStart = { [N in JobName]: { name: N; data: JobData[N]; startAfterSeconds?: number } }[JobName];

/**
 * Queues that hold at most one waiting or running job per key (pg-boss's `exclusive` policy and
 * `singletonKey`): a second start of the same key is dropped (`send` answers null).
 */
const SINGLETON_KEYS: { [N in JobName]?: (data: JobData[N]) => string } = {
  // One check per purchase however many times its first answer is told of.
  "guarantee.check": (data) => data.purchaseId,
  // One job per reminder and due time, however many times the booking is told of.
  "visit.remind": (data) => `${data.visitId}:${data.kind}:${data.dueAt}`,
  // One job per review window (issue 51) however many times its opening is told of.
  "reviews.publish": (data) => `${data.gigId}:${data.diggerId}:${data.endsAt}`,
  "reviews.remind": (data) => `${data.gigId}:${data.diggerId}:${data.endsAt}`,
};

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * Each queue's policy. Backoff doubles from `retryDelay` (with jitter) up to `retryDelayMax`;
 * after `retryLimit` retries the job stays `failed`, kept for `deleteAfterSeconds`.
 */
const QUEUE_POLICIES: Record<JobName, Omit<Queue, "name">> = {
  // 30 s, 1 min, 2 min, ... then hourly: about a day of tries before an operator must look.
  "email.deliver": { retryLimit: 30, retryDelay: 30, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // Started a minute after the refund is decided: the request tries at once (refunds.ts).
  "refund.send": { retryLimit: 30, retryDelay: MINUTE, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 30 * 24 * HOUR },
  "accounts.purge": { retryLimit: 3, retryDelay: 5 * MINUTE, retryBackoff: true, expireInSeconds: HOUR, deleteAfterSeconds: 7 * 24 * HOUR },
  // The next slot, 10 minutes on, tries again anyway: few retries.
  "issues.auto-approve": { retryLimit: 2, retryDelay: MINUTE, retryBackoff: true, expireInSeconds: 10 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // A failed reminder is retried for about the day it has before the deadline.
  "issues.remind": { retryLimit: 10, retryDelay: MINUTE, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // Alerts are worth little late: quick retries, then an operator looks. A rerun sends nothing twice.
  "alerts.gig": { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 5 * MINUTE, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  "alerts.deliver": { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 5 * MINUTE, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  "alerts.digest": { retryLimit: 3, retryDelay: 5 * MINUTE, retryBackoff: true, expireInSeconds: HOUR, deleteAfterSeconds: 7 * 24 * HOUR },
  // Daily: retried through the morning; the next day's run catches up anyway.
  "credentials.lapse": { retryLimit: 5, retryDelay: 5 * MINUTE, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: HOUR, deleteAfterSeconds: 7 * 24 * HOUR },
  // Retried for a while: a lost notice is a missed conversation. A rerun sends nothing twice.
  "messages.notify": { retryLimit: 10, retryDelay: 30, retryBackoff: true, retryDelayMax: 30 * MINUTE, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // Its push is worth little late: quick retries. A rerun tells nothing twice (messages.told_at).
  "messages.tell": { retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 5 * MINUTE, expireInSeconds: MINUTE, deleteAfterSeconds: 24 * HOUR },
  // Every 5 minutes: the next slot tries again anyway.
  "messages.tell-sweep": { retryLimit: 2, retryDelay: MINUTE, retryBackoff: true, expireInSeconds: 15 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // A push is worth little late (its TTL is a day): quick retries for a busy push service.
  "push.send": { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 5 * MINUTE, expireInSeconds: MINUTE, deleteAfterSeconds: HOUR },
  "push.purge": { retryLimit: 3, retryDelay: 5 * MINUTE, retryBackoff: true, expireInSeconds: 10 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  "notices.prune": { retryLimit: 3, retryDelay: 5 * MINUTE, retryBackoff: true, expireInSeconds: 10 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // One per purchase (SINGLETON_KEYS); a failure is retried, and the sweep settles it anyway.
  "guarantee.check": { policy: "exclusive", retryLimit: 10, retryDelay: MINUTE, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // Every 5 minutes: the next slot tries again anyway.
  "guarantee.sweep": { retryLimit: 2, retryDelay: MINUTE, retryBackoff: true, expireInSeconds: 15 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // A reminder is worth little late: quick retries for about half an hour (a rerun sends nothing twice), then the sweep.
  "visit.remind": { policy: "exclusive", retryLimit: 8, retryDelay: 15, retryBackoff: true, retryDelayMax: 10 * MINUTE, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // Every 5 minutes: the next slot tries again anyway.
  "visit.reminders-sweep": { retryLimit: 2, retryDelay: MINUTE, retryBackoff: true, expireInSeconds: 15 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // One per window (SINGLETON_KEYS); a rerun publishes and tells nothing twice, and the sweep catches what they miss.
  "reviews.publish": { policy: "exclusive", retryLimit: 10, retryDelay: MINUTE, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  "reviews.remind": { policy: "exclusive", retryLimit: 10, retryDelay: MINUTE, retryBackoff: true, retryDelayMax: HOUR, expireInSeconds: 5 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
  // Every 5 minutes: the next slot tries again anyway.
  "reviews.sweep": { retryLimit: 2, retryDelay: MINUTE, retryBackoff: true, expireInSeconds: 15 * MINUTE, deleteAfterSeconds: 7 * 24 * HOUR },
};

/** Recurring jobs: cron expressions in UTC, run once per slot across all servers (the digest: `DailySchedule`). */
export const SCHEDULES: Partial<Record<JobName, string>> = {
  "accounts.purge": "17 * * * *",
  "issues.auto-approve": "*/10 * * * *",
  // Just after midnight UTC: an approval "until" a date holds through that whole day (UTC).
  "credentials.lapse": "5 0 * * *",
  "push.purge": "41 * * * *",
  "notices.prune": "53 * * * *",
  "guarantee.sweep": "*/5 * * * *",
  "messages.tell-sweep": "*/5 * * * *",
  "visit.reminders-sweep": "*/5 * * * *",
  "reviews.sweep": "*/5 * * * *",
};

/** The daily digest's slot: its hour in the server's time zone (config DIGEST_HOUR, DIGEST_TIME_ZONE). */
export interface DailySchedule {
  digestHour: number;
  timeZone: string;
}

interface SendOptions {
  /** Enqueue inside this transaction: the job exists exactly when the transaction commits. */
  tx?: Transaction;
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
}

type JobHandler<N extends JobName> = (data: JobData[N]) => Promise<void>;
/**
 * Queues whose handler takes a whole fetch of jobs at once (e-mail: one claim of the rows, sent
 * side by side over the SMTP pool, decision 0042; pushes the same way over the keep-alive
 * agent, decision 0052). It answers each job's outcome in order, null for done or its error, so
 * a failed job is retried on its own with its own backoff.
 */
type BatchJobName = "email.deliver" | "push.send";
type BatchJobHandler<N extends JobName> = (data: Array<JobData[N]>) => Promise<Array<Error | null>>;
export type JobHandlers = { [N in JobName]: N extends BatchJobName ? BatchJobHandler<N> : JobHandler<N> };
const BATCH_QUEUES: ReadonlySet<JobName> = new Set<BatchJobName>(["email.deliver", "push.send"]);

/**
 * Jobs fetched at once: a batch queue's whole batch; 10 for the others, run side by side. A
 * push is one HTTPS request on a kept-alive socket (64 per push service): 100 a batch.
 */
const BATCH_SIZE: Partial<Record<JobName, number>> = { "email.deliver": 50, "push.send": 100 };

/**
 * Jobs of a fetch run at once, where fewer than the whole fetch (decision 0082). A job's
 * handler takes its connections from the request pool (`services.db`, 10 connections,
 * server/db/client.ts), not pg-boss's own 3: a burst of sends starts as many `messages.tell` jobs,
 * and 10 of them side by side would hold every connection of the pool while pages wait for
 * one. Two at a time leave the rest to the requests; in the bench's burst of 1,000 sends (155 a
 * second, load 5.4 on 2 cores) they told of about 106 a second, the last 3 s after its send.
 */
const SIDE_BY_SIDE: Partial<Record<JobName, number>> = { "messages.tell": 2 };

interface QueueDepth {
  queue: JobName;
  /** Waiting to run (ready, deferred or waiting for a retry). */
  queued: number;
  active: number;
  /** Failed for good and still kept (within the queue's retention). */
  failed: number;
}

export interface JobQueue {
  /** Creates or migrates pg-boss's tables and the queues; before the first `send`. */
  start(): Promise<void>;
  send<N extends JobName>(name: N, data: JobData[N], options?: SendOptions): Promise<string | null>;
  /** Enqueues many jobs of one queue in one statement (pg-boss's `insert`, the queue's policy). */
  sendMany<N extends JobName>(name: N, data: Array<JobData[N]>, options?: Pick<SendOptions, "tx">): Promise<void>;
  /** Runs this server's workers and the schedules; call once per process. */
  work(handlers: JobHandlers): Promise<void>;
  depth(): Promise<QueueDepth[]>;
  /** Stops the workers, waiting for jobs in progress; the database stays open. */
  stop(): Promise<void>;
}

/** A queue's handler as one that takes a batch: a batch queue's own, or the job handler run for each job side by side. */
function batchRunner(name: JobName, handler: JobHandlers[JobName]): BatchJobHandler<JobName> {
  if (BATCH_QUEUES.has(name)) return handler as BatchJobHandler<JobName>;
  const each = handler as JobHandler<JobName>;
  const width = SIDE_BY_SIDE[name];
  return async (data) => {
    let outcomes: Array<PromiseSettledResult<void>>;
    if (width === undefined) outcomes = await Promise.allSettled(data.map((d) => each(d)));
    else {
      // `width` lanes, each taking the batch's next job when its last one settles.
      outcomes = [];
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < data.length; i = next++) [outcomes[i]] = await Promise.allSettled([each(data[i]!)]);
      };
      await Promise.all(Array.from({ length: Math.min(width, data.length) }, lane));
    }
    return outcomes.map((o) => (o.status === "fulfilled" ? null : o.reason instanceof Error ? o.reason : new Error(String(o.reason))));
  };
}

/** pg-boss's tables live in their own schema, beside the application's. */
const SCHEMA = "pgboss";

/** Texts of pg-boss's statements run in our transactions, by the name each is prepared under. */
const statementNames = new Map<string, string>();
/** pg-boss writes each kind of statement with one text; past this many, any other runs unnamed. */
const MAX_NAMED_STATEMENTS = 20;

/**
 * pg-boss's statements in the caller's transaction (a job started with the rows it is about):
 * each prepared by name, after a hash of its text (issue 52: a job's insert, about a
 * millisecond of PostgreSQL's planning, ran once per message sent). Its `$n` parameters go to the
 * driver as they are, arrays included.
 */
function inTransaction(tx: Transaction): Db {
  return {
    async executeSql(text, values = []) {
      let name = statementNames.get(text);
      if (name === undefined) {
        name = statementNames.size < MAX_NAMED_STATEMENTS ? `pgboss_${createHash("sha1").update(text).digest("hex").slice(0, 16)}` : "";
        if (name) statementNames.set(text, name);
      }
      const statement = tx._.session.prepareQuery({ sql: text, params: values }, undefined, name, false);
      return (await statement.execute()) as { rows: unknown[] };
    },
  };
}

export function createJobQueue(database: DatabaseHandle, logger: Logger, daily: DailySchedule = { digestHour: 8, timeZone: "UTC" }): JobQueue {
  const log = logger.child({ component: "jobs" });
  const { driver } = database;
  const boss = new PgBoss({
    schema: SCHEMA,
    ...(driver.kind === "postgres"
      ? { connectionString: driver.url, max: 3, application_name: "digs-and-gigs-jobs" }
      : { db: fromPglite(driver.client), backend: "pglite" as const }),
    useListenNotify: true,
    persistWarnings: false,
  });
  boss.on("error", (error) => log.error({ err: error }, "job queue error"));
  boss.on("warning", (warning) => log.warn({ warning }, "job queue warning"));

  let started: Promise<void> | undefined;
  const ready = () =>
    (started ??= (async () => {
      await boss.start();
      // Also fills pg-boss's cache of queues, so a send inside a transaction needs no other
      // connection (on PGlite, the only one is held by that transaction: it would wait forever).
      for (const [name, policy] of Object.entries(QUEUE_POLICIES)) {
        await boss.createQueue(name, { ...policy, notify: true });
      }
    })());

  return {
    start: ready,
    async send(name, data, options = {}) {
      if (!started) throw new Error(`job queue not started: cannot send ${name}`);
      await started;
      const key = (SINGLETON_KEYS[name] as ((d: JobData[typeof name]) => string) | undefined)?.(data);
      return boss.send(name, data, {
        startAfter: options.startAfterSeconds,
        ...(key === undefined ? {} : { singletonKey: key }),
        // Both of our drivers answer `execute` with `{ rows }`, which the adapter reads.
        db: options.tx ? inTransaction(options.tx) : undefined,
      });
    },
    async sendMany(name, data, options = {}) {
      if (!started) throw new Error(`job queue not started: cannot send ${name}`);
      await started;
      if (data.length === 0) return;
      await boss.insert(
        name,
        data.map((d) => ({ data: d })),
        { db: options.tx ? inTransaction(options.tx) : undefined },
      );
    },
    async work(handlers) {
      await ready();
      for (const name of Object.keys(QUEUE_POLICIES) as JobName[]) {
        const run = batchRunner(name, handlers[name]);
        // Up to BATCH_SIZE jobs per fetch (10 unless set), settled one by one; while fetches come
        // back full the worker fetches again at once. NOTIFY wakes it for new jobs; the 2 s poll
        // finds retries whose backoff ran out.
        await boss.work(
          name,
          { batchSize: BATCH_SIZE[name] ?? 10, perJobResults: true, burstWhenBatchFull: true, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 },
          async (batch: Array<Job<JobData[JobName]>>) => {
            const outcomes = await run(batch.map((job) => job.data));
            return batch.map((job, i) => {
              // A job the handler gave no outcome for is not done: it is retried.
              const error = i < outcomes.length ? outcomes[i]! : new Error("the batch handler gave this job no outcome");
              if (error === null) return { id: job.id, status: "completed" as const };
              log.warn({ err: error, job: name, jobId: job.id }, "job failed; it is retried with backoff");
              return { id: job.id, status: "failed" as const, output: { message: error.message } };
            });
          },
        );
      }
      for (const [name, cron] of Object.entries(SCHEDULES)) await boss.schedule(name, cron, {}, { tz: "UTC" });
      // pg-boss evaluates the cron in `tz` (ScheduleOptions.tz), daylight saving included.
      await boss.schedule("alerts.digest", `0 ${daily.digestHour} * * *`, {}, { tz: daily.timeZone });
    },
    async depth() {
      await ready();
      // Counted now, not from pg-boss's stats cache (refreshed once a minute): operators and
      // metrics see a failure as it happens. One scan of pg-boss's (name, state) index.
      const counts = await queryRows<{ name: JobName; state: string; count: number }>(
        database.db,
        sql`select name, state::text as state, count(*)::int as count from ${sql.identifier(SCHEMA)}.job group by name, state`,
      );
      const of = (name: JobName, states: string[]) =>
        counts.filter((c) => c.name === name && states.includes(c.state)).reduce((sum, c) => sum + c.count, 0);
      return (Object.keys(QUEUE_POLICIES) as JobName[]).map((queue) => ({
        queue,
        queued: of(queue, ["created", "retry"]),
        active: of(queue, ["active"]),
        failed: of(queue, ["failed"]),
      }));
    },
    async stop() {
      if (!started) return;
      await started.catch(() => {});
      // Not `close`: on PGlite the connection is the application's own.
      await boss.stop({ graceful: true, close: driver.kind === "postgres" });
    },
  };
}
