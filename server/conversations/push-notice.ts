/**
 * Telling a message's recipient of it, just after the send (issue 34's push, issue 32's notice;
 * decision 0078): the `messages.tell` job that the event "message.sent" starts. It claims the
 * message (`messages.told_at`, set once, so a job run twice tells once), reads what the push
 * says (the sender as the thread names them, the gig, the text) in the same statement, and emits
 * "message.arrived" (server/events/registry.ts): the recipient's devices are pushed to, and the
 * notice of unread messages is scheduled 5 minutes after the message (message-notices.ts).
 */
import { sql } from "drizzle-orm";
import { partyName } from "#core/messages.ts";
import { queryRows } from "../db/client.ts";
import { placeholder, preparedRows } from "../db/prepared.ts";
import type { AppServices } from "../context.ts";

interface TellRow {
  thread_id: string;
  sender_id: string;
  recipient_id: string;
  sender_is_digger: boolean;
  body: string;
  gig_title: string;
  sender_full_name: string | null;
  sender_deleted: boolean;
  sender_handle: string | null;
  seconds_ago: number;
  withheld: boolean;
}

/** The message claimed, with what the push says (prepared: server/db/prepared.ts, once per message sent). */
const claimMessage = preparedRows<TellRow>(
  "messages_tell_claim",
  () => sql`update messages m set told_at = now()
    from threads t
    join lead_purchases p on p.id = t.purchase_id
    join gigs g on g.id = p.gig_id
    where m.id = ${placeholder("messageId")} and m.told_at is null and t.id = m.thread_id
    returning m.thread_id, m.sender_id, m.body, g.title as gig_title,
      case when m.sender_id = t.digger_user_id then t.client_id else t.digger_user_id end as recipient_id,
      m.sender_id = t.digger_user_id as sender_is_digger,
      (select u.full_name from users u where u.id = m.sender_id) as sender_full_name,
      coalesce((select u.deleted_at is not null from users u where u.id = m.sender_id), true) as sender_deleted,
      (select d.handle from digger_profiles d where d.user_id = m.sender_id) as sender_handle,
      greatest(0, extract(epoch from now() - m.created_at))::float8 as seconds_ago,
      -- What came between the send and this job: the message hidden or deleted, read by its
      -- recipient already (the sweep's late telling, hours on: a push of what was answered),
      -- a block either way, either party suspended or deleted. Nothing is told of it then.
      (m.hidden_at is not null or m.deleted_at is not null
        or m.seq <= (case when m.sender_id = t.digger_user_id then t.client_read_seq else t.digger_read_seq end)
        or exists (select 1 from blocks b where (b.blocker_id = t.digger_user_id and b.blocked_id = t.client_id)
                                            or (b.blocker_id = t.client_id and b.blocked_id = t.digger_user_id))
        or exists (select 1 from users u where u.id in (t.digger_user_id, t.client_id) and (u.suspended_at is not null or u.deleted_at is not null))
        or (select count(*) from users u where u.id in (t.digger_user_id, t.client_id)) < 2) as withheld`,
);

/**
 * The `messages.tell` job of message `messageId`: false when it was told of already (or is gone).
 * Claimed but told to nobody when, since the send, the message was hidden or deleted, its
 * recipient read it, one party blocked the other, or either was suspended or deleted (the send
 * refused all of these but the reading).
 */
export async function tellOfMessage(services: Pick<AppServices, "db" | "emit">, messageId: string): Promise<boolean> {
  return services.db.transaction(async (tx) => {
    // Its commit waits for no flush to disk (decision 0084): a crash may lose the last moments'
    // tellings, each whole (the claim with its pushes and notice job), and the sweep tells of
    // those messages again. The message itself was committed durably by its send.
    await tx.execute(sql`set local synchronous_commit = off`);
    const [row] = await claimMessage(tx, undefined, { messageId });
    if (!row) return false;
    if (row.withheld) return true;
    // Named as the thread names them (core/messages.ts `partyName`, as message-notices.ts's `senderNameOf`).
    const senderName = partyName({
      role: row.sender_is_digger ? "digger" : "client",
      deleted: row.sender_full_name === null || row.sender_deleted,
      handle: row.sender_handle,
      fullName: row.sender_full_name,
    });
    await services.emit(tx, {
      kind: "message.arrived",
      threadId: row.thread_id,
      recipientUserId: row.recipient_id,
      senderName,
      gigTitle: row.gig_title,
      text: row.body,
      sentSecondsAgo: row.seconds_ago,
    });
    return true;
  });
}

/** How long a message's own job has before the sweep tells of it: its first retries (5 s, 10 s, 20 s, ...). */
const SWEEP_AFTER = sql`interval '5 minutes'`;
/**
 * The oldest message the sweep tells of: a push is worth little later, and nothing older than
 * this is ever told (migration 0059 marked the messages of before the job told; this keeps any
 * it missed from being pushed now).
 */
const SWEEP_BEFORE = sql`interval '6 hours'`;
/** Messages read per round, one round after another, at most `SWEEP_ROUNDS` a run (every 5 minutes). */
const SWEEP_BATCH = 100;
const SWEEP_ROUNDS = 10;

export interface UntoldRow {
  id: string;
  /** Its `created_at` as PostgreSQL prints it, to the microsecond: the next round's cursor. */
  at: string;
}

export interface SweptMessages {
  /** Claimed by the sweep: told of, or withheld as the job would have (a block since, ...). */
  told: number;
  /** Whose telling failed again; the next run tries them again while they are in the window. */
  failed: number;
  /**
   * Where the next run begins: after the last message this run read when it stopped at its
   * rounds' end with more to read, else null (from the oldest). Without it, more than a run's
   * worth of messages failing every time would keep every newer one from its turn.
   */
  resumeAfter: UntoldRow | null;
}

/**
 * The `messages.tell-sweep` job (every 5 minutes): the safety net behind `messages.tell`. Tells
 * of every message between 5 minutes and 6 hours old that nobody has been told of (its job
 * failed all its retries, or is gone), oldest first, one at a time (a single connection of the
 * request pool), each claimed as its job claims it (`told_at`): a job still running alongside
 * tells nothing twice. At most `SWEEP_ROUNDS` rounds of `SWEEP_BATCH` a run, read from the
 * partial index of untold messages (`messages_untold_idx`); a message that fails is passed
 * over within the run, so that it holds up none after it, and a run that stops with more to read
 * says where the next one begins (`from`, `resumeAfter`).
 */
export async function sweepUntoldMessages(
  services: Pick<AppServices, "db" | "emit">,
  onFailure?: (messageId: string, error: unknown) => void,
  from: UntoldRow | null = null,
): Promise<SweptMessages> {
  const swept: SweptMessages = { told: 0, failed: 0, resumeAfter: null };
  let cursor = from;
  for (let round = 0; round < SWEEP_ROUNDS; round += 1) {
    const due: UntoldRow[] = await queryRows<UntoldRow>(
      services.db,
      sql`select id, created_at::text as at from messages
          where told_at is null and created_at < now() - ${SWEEP_AFTER} and created_at > now() - ${SWEEP_BEFORE}
            ${cursor ? sql`and (created_at, id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : sql``}
          order by created_at, id limit ${SWEEP_BATCH}`,
    );
    for (const row of due) {
      try {
        if (await tellOfMessage(services, row.id)) swept.told += 1;
      } catch (error) {
        swept.failed += 1;
        onFailure?.(row.id, error);
      }
    }
    if (due.length < SWEEP_BATCH) return swept;
    cursor = due[due.length - 1]!;
  }
  swept.resumeAfter = cursor;
  return swept;
}
