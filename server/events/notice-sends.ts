/**
 * When each notice last went (`notice_sends`, decision 0034): `notify` claims a row in the
 * event's transaction, and the hourly `notices.prune` job deletes the rows past their window.
 */
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "../db/client.ts";
import { noticeSends } from "../db/schema.ts";

/** A notice went within the window: a repeat of its event tells no one. */
const sentWithinTheWindow = sql`${noticeSends.sentAt} > now() - interval '24 hours'`;

/** Rows deleted per statement: a first run on years of rows holds no lock for long. */
const PRUNE_BATCH = 10_000;

/**
 * Deletes the `notice_sends` rows whose notice went 24 hours ago or more: the `notices.prune`
 * job, hourly. Such a row decides nothing any more (the claim treats it as absent), so the
 * table holds about a day of notices instead of every notice ever sent, and this delete's scan
 * stays as small as that day. It deletes in batches, counting in the database; a claim racing
 * the delete takes the row either way (the outer statement checks the window again).
 */
export async function pruneNoticeSends(db: Database): Promise<number> {
  const stale = sql`not (${sentWithinTheWindow})`;
  let pruned = 0;
  for (;;) {
    const [batch] = await queryRows<{ deleted: number }>(
      db,
      sql`with gone as (
            delete from ${noticeSends}
            where (user_id, kind, subject_id) in (select user_id, kind, subject_id from ${noticeSends} where ${stale} limit ${PRUNE_BATCH})
              and ${stale}
            returning 1)
          select count(*)::int as deleted from gone`,
    );
    const deleted = batch?.deleted ?? 0;
    pruned += deleted;
    if (deleted < PRUNE_BATCH) return pruned;
  }
}

/**
 * Takes the (user, kind, subject) row when it is new or its notice went 24 hours ago or more,
 * as a statement that returns one row when taken and none when the notice went less than 24
 * hours ago (`notify` goes on from it in the same statement). The conflicting row is locked
 * until the transaction ends, so of two transactions repeating the event at once, the second
 * sees the first's time.
 */
export function claimNoticeStatement(userId: string, kind: string, subjectId: string): SQL {
  return sql`insert into ${noticeSends} (user_id, kind, subject_id) values (${userId}, ${kind}, ${subjectId})
    on conflict (user_id, kind, subject_id) do update set sent_at = now() where not (${sentWithinTheWindow})
    returning 1`;
}
