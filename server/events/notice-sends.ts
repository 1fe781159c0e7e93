/**
 * When each notice last went (`notice_sends`, decision 0034): `notify` claims a row in the
 * event's transaction, and the hourly `notices.prune` job deletes the rows past their window.
 */
import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { noticeSends } from "../db/schema.ts";

/** A notice went within the window: a repeat of its event tells no one. */
const sentWithinTheWindow = sql`${noticeSends.sentAt} > now() - interval '24 hours'`;

/**
 * Deletes the `notice_sends` rows whose notice went 24 hours ago or more: the `notices.prune`
 * job, hourly. Such a row decides nothing any more (`claimNotice` treats it as absent), so the
 * table holds about a day of notices instead of every notice ever sent, and this delete's scan
 * stays as small as that day. A claim racing the delete takes the row either way.
 */
export async function pruneNoticeSends(db: Database): Promise<number> {
  const deleted = await db
    .delete(noticeSends)
    .where(sql`not (${sentWithinTheWindow})`)
    .returning({ userId: noticeSends.userId });
  return deleted.length;
}

/**
 * Takes the (user, kind, subject) row when it is new or its notice went 24 hours ago or more;
 * false: it went less than 24 hours ago. The conflicting row is locked until the transaction
 * ends, so of two transactions repeating the event at once, the second sees the first's time.
 */
export async function claimNotice(tx: Transaction, userId: string, kind: string, subjectId: string): Promise<boolean> {
  const claimed = await tx
    .insert(noticeSends)
    .values({ userId, kind, subjectId })
    .onConflictDoUpdate({
      target: [noticeSends.userId, noticeSends.kind, noticeSends.subjectId],
      set: { sentAt: sql`now()` },
      setWhere: sql`not (${sentWithinTheWindow})`,
    })
    .returning({ userId: noticeSends.userId });
  return claimed.length > 0;
}
