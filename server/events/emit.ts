/**
 * The one way an operation tells of an event: `emit(tx, { kind, ...data })`, in the event's
 * own transaction, so the change, its audit row, its bell entries, its e-mails and its jobs
 * commit together or not at all. What each kind does is declared once in registry.ts; here
 * is only the machinery, in this order: the audit row (audit.ts), then for each recipient
 * the bell entry with its e-mail and push (notify.ts: once per kind, subject and recipient in
 * 24 hours) or the e-mail and push alone, then the jobs (the job queue).
 *
 * Better Auth's e-mail callbacks have no transaction of theirs: they pass the database, and
 * emit opens one of its own.
 */
import { ALWAYS_EMAILED, DEFAULT_REACH, REACH_PUSH_TITLES, URGENT_GROUPS } from "#core/reach.ts";
import type { Config } from "../config.ts";
import type { Database, Transaction } from "../db/client.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import { pushToUser } from "../push/send.ts";
import { reachOf } from "../reach/preferences.ts";
import { recordOperatorAction } from "./audit.ts";
import type { EventContext, EventDeclaration, Recipient } from "./declaration.ts";
import type { Notify } from "./notify.ts";
import { EVENTS, type EventData, type EventKind } from "./registry.ts";

/** An event: its kind and its data, checked against the kind's declaration. */
export type AppEvent = { [K in EventKind]: { kind: K } & EventData<K> }[EventKind];

export interface Emitted {
  /** The audit row's id, when the event has one. */
  auditId: string | null;
  /** Each recipient's e-mail row, in the order of `to` (null: none recorded, e.g. told less than a day ago). */
  emailIds: Array<string | null>;
}

export type Emit = (db: Transaction | Database, event: AppEvent) => Promise<Emitted>;

const isTransaction = (db: Transaction | Database): db is Transaction => "rollback" in db;

export function createEmit({ config, mailer, jobs, notify }: { config: Config; mailer: Mailer; jobs: JobQueue; notify: Notify }): Emit {
  async function run(tx: Transaction, event: AppEvent): Promise<Emitted> {
    const declaration = EVENTS[event.kind] as EventDeclaration<AppEvent>;
    const context: EventContext = { config, tx };
    const auditId = declaration.audit ? await recordOperatorAction(tx, declaration.audit(event)) : null;
    const emailIds: Array<string | null> = [];
    const recipients = declaration.to ? [declaration.to(event, context)].flat() : [];
    for (const recipient of recipients) emailIds.push(await tell(tx, declaration, event, context, auditId, recipient));
    for (const job of (await declaration.jobs?.(event, context)) ?? []) {
      await jobs.send(job.name, job.data as never, { tx, startAfterSeconds: job.startAfterSeconds });
    }
    return { auditId, emailIds };
  }

  /**
   * One recipient: the bell entry (always), the e-mail by their E-mail choice for the event's
   * group unless it is one they must not miss, and the push by their Push choice (How to reach
   * me, server/reach/): `push.send` jobs in this transaction, never sent in the request.
   */
  async function tell(tx: Transaction, declaration: EventDeclaration<AppEvent>, event: AppEvent, context: EventContext, auditId: string | null, recipient: Recipient) {
    const userId = recipient.userId;
    const reach = userId ? await reachOf(tx, userId, declaration.group) : null;
    // A user recipient who does not exist is told nothing; an address is written to (Better
    // Auth's callbacks may name an account its own transaction has not committed yet).
    if (!("address" in recipient) && !reach) return null;
    const choice = reach ?? DEFAULT_REACH;
    const emailed = !declaration.group || declaration.mustNotMiss || ALWAYS_EMAILED.has(declaration.group) || choice.email;
    const email = emailed ? declaration.email?.(event, context) : undefined;
    const bell = declaration.bell?.(event, { ...context, auditId });
    let push: ((within: Transaction) => Promise<unknown>) | undefined;
    if (userId && reach?.push && declaration.group && config.push) {
      const notice = declaration.push ? await declaration.push(event, context) : bell ? { title: REACH_PUSH_TITLES[declaration.group], body: bell.text, link: bell.link } : null;
      const urgency = URGENT_GROUPS.has(declaration.group) ? "high" : "normal";
      if (notice) push = (within) => pushToUser(within, jobs, userId, { ...notice, urgency });
    }
    if (bell) {
      if (!userId || "address" in recipient || !reach) throw new Error(`${event.kind}: a bell entry goes to a user, not to an address`);
      // The push goes with the bell's entry: held back with it by the once-a-day rule (decision 0052).
      return notify(tx, { userId, ...bell, address: reach.address, email, alsoWhenTold: push });
    }
    await push?.(tx);
    if (!email) return null;
    if ("address" in recipient) return mailer.send({ ...email, to: recipient.address, userId, kind: "transactional" }, { tx });
    // The user's own address, read in the event's transaction.
    return mailer.send({ ...email, to: reach!.address, userId, kind: "transactional" }, { tx });
  }

  return (db, event) => (isTransaction(db) ? run(db, event) : db.transaction((tx) => run(tx, event)));
}

/** The events whose declaration only records (an audit row): no recipient, no job. */
export type RecordOnlyEvent = Extract<AppEvent, { kind: "operator.role" | "review.moderated" | "profile.verified-badge" }>;

const cannot = () => {
  throw new Error("an event that only records neither tells anyone nor starts a job");
};
const recordOnly = createEmit({
  config: {} as Config,
  mailer: { send: cannot, deliver: cannot, close: cannot },
  jobs: { send: cannot } as unknown as JobQueue,
  notify: cannot,
});

/** Emits an event that only records, where there is no mailer nor job queue (`npm run operator`). */
export const emitRecord = (tx: Transaction, event: RecordOnlyEvent): Promise<Emitted> => recordOnly(tx, event);
