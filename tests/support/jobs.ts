/**
 * pg-boss's jobs, read and nudged through its table (schema `pgboss`): a test sees a job's
 * state, and makes a job waiting for its backoff due now instead of in a minute.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../../server/db/client.ts";
import type { JobData, JobName } from "../../server/jobs/queue.ts";

export interface QueuedJob {
  state: string;
  retry_count: number;
  /** Seconds until it may run (negative: due). */
  wait_seconds: number;
}

/** The job of queue `name` whose data has `key` = `value` (e.g. the e-mail's id). */
export async function jobOf<N extends JobName>(db: Database, name: N, key: keyof JobData[N] & string, value: string): Promise<QueuedJob | undefined> {
  const [job] = await queryRows<QueuedJob>(
    db,
    sql`select state::text as state, retry_count, extract(epoch from start_after - now())::float8 as wait_seconds
        from pgboss.job where name = ${name} and data->>${key} = ${value}`,
  );
  return job;
}

/** Makes that job due now; `exhausted` also spends its retries, so its next failure is final. */
export async function makeJobDue<N extends JobName>(db: Database, name: N, key: keyof JobData[N] & string, value: string, { exhausted = false } = {}) {
  await db.execute(
    sql`update pgboss.job set start_after = now() ${exhausted ? sql`, retry_count = retry_limit` : sql``}
        where name = ${name} and data->>${key} = ${value}`,
  );
}

/**
 * Waits until no job of queue `name` is due or running: what the requests so far enqueued
 * (e-mail, by default) has been tried, and a test can look at the mail server.
 */
export async function jobsSettled(db: Database, name: JobName = "email.deliver", timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [{ busy }] = (await queryRows<{ busy: number }>(
      db,
      sql`select count(*)::int as busy from pgboss.job
          where name = ${name} and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
    )) as [{ busy: number }];
    if (busy === 0) return;
    if (Date.now() > until) throw new Error(`${busy} ${name} job(s) still due or running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
