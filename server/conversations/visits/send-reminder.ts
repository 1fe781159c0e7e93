/**
 * A booked visit's reminders (issue 50; docs/decisions/0076-site-visits.md, "Reminders"): 24 hours
 * ('day') and 2 hours ('hours') before its window opens, to both parties by How to reach me's
 * 'Visits' row (the event "visit.reminder"). The rows are kept by the trigger on `visits`
 * (migration 0055: written at booking, moved with the visit and their sent mark cleared, deleted
 * when it is cancelled); the queue only wakes them:
 * - `visit.remind`, started by "visit.booked" for each row's due time (jobs/starts.ts), sends that
 *   row if it is still due at that very time and unsent: a moved visit's old job finds another
 *   due time, a cancelled visit's finds no row, and both do nothing;
 * - `visit.reminders-sweep`, every 5 minutes, sends the rows a job missed (overdue by more than
 *   `SWEEP_AFTER`).
 * Both claim a row in one statement (`sent_at` set where it is null, in the transaction that
 * emits the event), so two servers, or a job and the sweep, send a reminder exactly once: the
 * second claim waits for the first's commit and then finds the row sent. A reminder claimed once
 * its visit has started, or a 24-hour one claimed once the 2-hour one is due, is marked sent and
 * says nothing (the later one, or nothing, is worth more than a wrong 'tomorrow').
 */
import { sql } from "drizzle-orm";
import type { VisitReminderKind } from "#core/visits.ts";
import type { AppServices } from "../../context.ts";
import { queryRows } from "../../db/client.ts";
import { REMINDER_DUE_TEXT } from "../../jobs/starts.ts";
import { visitFacts, visitTime } from "./visit-facts.ts";

type Services = Pick<AppServices, "db" | "emit">;

/** A job may claim its reminder this early: the server that started it may run a little ahead of the database's clock. */
const EARLY = sql`interval '1 minute'`;
/** The sweep sends a reminder overdue by more than this (its job had the time to). */
const SWEEP_AFTER = sql`interval '2 minutes'`;
/** Overdue reminders read per round of the sweep; rounds go on while a full one made progress. */
const BATCH = 200;

interface Claimed {
  threadId: string;
  id: string;
  sequence: number;
  startsAt: Date;
  windowMinutes: number;
  clientConfirmed: boolean;
  /** The visit has not started yet; for a 24-hour reminder, it is still more than 2 hours away. */
  timely: boolean;
}

/**
 * Sends reminder `kind` of visit `visitId` if its row is due at `dueAt` (to the microsecond, as
 * the job carries it), unsent and its visit booked: "sent", "late" (claimed, too late to say), or
 * null (nothing to send: moved, dropped, already sent, or not due yet).
 */
export async function sendVisitReminder(services: Services, visitId: string, kind: VisitReminderKind, dueAt: string): Promise<"sent" | "late" | null> {
  return services.db.transaction(async (tx) => {
    const [claimed] = await queryRows<Claimed>(
      tx,
      sql`update visit_reminders r set sent_at = now()
          from visits v
          where r.visit_id = ${visitId} and r.kind = ${kind} and r.due_at = ${dueAt}::timestamptz and r.sent_at is null
            and r.due_at <= now() + ${EARLY}
            and v.id = r.visit_id and v.status = 'booked'
          returning v.thread_id as "threadId", v.id, v.sequence, v.starts_at as "startsAt", v.window_minutes as "windowMinutes",
            v.client_confirmed_at is not null as "clientConfirmed",
            v.starts_at > now() + (case when r.kind = 'day' then interval '2 hours' else interval '0' end) as timely`,
    );
    if (!claimed) return null;
    if (!claimed.timely) return "late";
    const facts = await visitFacts(tx, claimed.threadId);
    await services.emit(tx, {
      kind: "visit.reminder",
      ...facts,
      ...visitTime({ ...claimed, startsAt: new Date(claimed.startsAt) }),
      reminder: kind,
      clientConfirmed: claimed.clientConfirmed,
    });
    return "sent";
  });
}

/**
 * The `visit.reminders-sweep` job: every reminder overdue by more than `SWEEP_AFTER` and unsent,
 * oldest first, each claimed as its job would claim it. Returns how many it sent.
 */
export async function sweepDueVisitReminders(services: Services): Promise<number> {
  let sent = 0;
  for (;;) {
    const due = await queryRows<{ visitId: string; kind: VisitReminderKind; dueAt: string }>(
      services.db,
      sql`select visit_id as "visitId", kind, ${REMINDER_DUE_TEXT} as "dueAt" from visit_reminders
          where sent_at is null and due_at <= now() - ${SWEEP_AFTER} order by due_at limit ${BATCH}`,
    );
    let progressed = 0;
    for (const row of due) {
      const outcome = await sendVisitReminder(services, row.visitId, row.kind, row.dueAt);
      if (outcome) progressed += 1;
      if (outcome === "sent") sent += 1;
    }
    if (due.length < BATCH || progressed === 0) return sent;
  }
}
