/**
 * The end of a hire's blind review window, by the queue (issue 51, docs/decisions/0077-two-way-reviews.md):
 * - `reviews.publish`, started by "review.window-opened" just after the window's end
 *   (jobs/starts.ts), publishes both reviews at once and tells both parties ("reviews.published");
 * - `reviews.remind`, REVIEW_REMINDER_DAYS before the end, tells the side that has not reviewed
 *   yet, once ("review.waiting" with `reminder`), when the other side has;
 * - `reviews.sweep`, every 5 minutes, does both for the windows overdue by more than `SWEEP_AFTER`
 *   (a job lost, a server down), by the partial index review_windows_due_idx.
 * Exactly once across servers: publishing takes the window's row FOR UPDATE and publishes only a
 * blind one (review-window.ts `publishWindow`'s conditional update), the reminder claims
 * `reminded_at` where it is null in one statement; a second job, or a job and the sweep, find
 * the work done after the first commits.
 */
import { sql, type SQL } from "drizzle-orm";
import { REVIEW_REMINDER_DAYS } from "#core/two-way-reviews.ts";
import type { AppServices } from "../context.ts";
import { queryRows } from "../db/client.ts";
import { publishEndedWindow, sidesWritten, windowParties } from "./review-window.ts";

type Services = Pick<AppServices, "db" | "emit">;

/** A job may claim its reminder this early: the server that started it may run a little ahead of the database's clock. */
const EARLY = sql`interval '1 minute'`;
/** The sweep does what is overdue by more than this (its job had the time to). */
const SWEEP_AFTER = sql`interval '2 minutes'`;
/** Windows read per round of the sweep; rounds go on while a full one made progress. */
const BATCH = 200;
const REMINDER_BEFORE = sql`make_interval(days => ${REVIEW_REMINDER_DAYS}::int)`;

/**
 * Publishes the blind window of (gig, digger) if its end has passed, and tells both parties when
 * a review was written in it: true when this call published it.
 */
export async function publishDueWindow(services: Services, gigId: string, diggerId: string): Promise<boolean> {
  return services.db.transaction(async (tx) => {
    const [due] = await queryRows<{ gigId: string }>(
      tx,
      sql`select gig_id as "gigId" from review_windows
          where gig_id = ${gigId} and digger_id = ${diggerId} and published_at is null and ends_at <= now()
          for update`,
    );
    return due ? publishEndedWindow(tx, services.emit, gigId, diggerId) : false;
  });
}

/**
 * The reminder of the blind window of (gig, digger), REVIEW_REMINDER_DAYS before its end: claimed
 * once (`reminded_at`), whoever has written by then; "sent" to the side that has not when the
 * other has, "claimed" when there was nobody to remind (neither or both wrote: the first review's
 * own notice, or the publication, tells them), null when not due, not blind or claimed already.
 */
export async function remindDueWindow(services: Services, gigId: string, diggerId: string): Promise<"sent" | "claimed" | null> {
  return services.db.transaction(async (tx) => {
    const [claimed] = await queryRows<{ endsAt: Date }>(
      tx,
      sql`update review_windows set reminded_at = now()
          where gig_id = ${gigId} and digger_id = ${diggerId} and published_at is null and reminded_at is null and closed_at is null
            and ends_at - ${REMINDER_BEFORE} <= now() + ${EARLY} and ends_at > now()
          returning ends_at as "endsAt"`,
    );
    if (!claimed) return null;
    const written = await sidesWritten(tx, gigId, diggerId);
    if (written.client === written.digger) return "claimed";
    const parties = await windowParties(tx, gigId, diggerId);
    if (!parties) return "claimed";
    const toClient = written.digger;
    await services.emit(tx, {
      kind: "review.waiting",
      gigId,
      diggerId,
      gigTitle: parties.gigTitle,
      recipientUserId: toClient ? parties.clientUserId : parties.diggerUserId,
      recipientSide: toClient ? "client" : "digger",
      writerName: toClient ? parties.diggerName : parties.clientName,
      endsAt: new Date(claimed.endsAt).toISOString(),
      reminder: true,
    });
    return "sent";
  });
}

/** The `reviews.sweep` job: the windows whose publication or reminder is overdue, oldest first, each done as its job would. */
export async function sweepReviewWindows(services: Services): Promise<{ published: number; reminded: number }> {
  const published = await sweep(
    services,
    sql`select gig_id as "gigId", digger_id as "diggerId" from review_windows
        where published_at is null and ends_at <= now() - ${SWEEP_AFTER} order by ends_at limit ${BATCH}`,
    async (row) => {
      const done = await publishDueWindow(services, row.gigId, row.diggerId);
      return { counted: done, progressed: done };
    },
  );
  const reminded = await sweep(
    services,
    sql`select gig_id as "gigId", digger_id as "diggerId" from review_windows
        where published_at is null and reminded_at is null and ends_at > now() and ends_at - ${REMINDER_BEFORE} <= now() - ${SWEEP_AFTER}
        order by ends_at limit ${BATCH}`,
    async (row) => {
      const outcome = await remindDueWindow(services, row.gigId, row.diggerId);
      return { counted: outcome === "sent", progressed: outcome !== null };
    },
  );
  return { published, reminded };
}

/** Rounds of `due` (at most BATCH rows each), `run` on each row, while a full round made progress: how many rows `run` counted. */
async function sweep(
  services: Services,
  due: SQL,
  run: (row: { gigId: string; diggerId: string }) => Promise<{ counted: boolean; progressed: boolean }>,
): Promise<number> {
  let counted = 0;
  for (;;) {
    const rows = await queryRows<{ gigId: string; diggerId: string }>(services.db, due);
    let progressed = 0;
    for (const row of rows) {
      const outcome = await run(row);
      if (outcome.counted) counted += 1;
      if (outcome.progressed) progressed += 1;
    }
    if (rows.length < BATCH || progressed === 0) return counted;
  }
}
