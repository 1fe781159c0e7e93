/**
 * The one way an operation tells of an event: `emit(tx, { kind, ...data })`, in the event's
 * own transaction, so the change, its audit row, its bell entries, its e-mails and its jobs
 * commit together or not at all. What each kind does is declared once in registry.ts; here
 * is only the machinery, in this order: the audit row (ops/audit.ts), then for each recipient
 * the bell entry and its e-mail (notifications/notify.ts: once per kind, subject and recipient
 * in 24 hours) or the e-mail alone (the mailer), then the jobs (the job queue).
 *
 * Better Auth's e-mail callbacks have no transaction of theirs: they pass the database, and
 * emit opens one of its own.
 */
import { eq } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database, Transaction } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { Notify } from "../notifications/notify.ts";
import { recordOperatorAction } from "../ops/audit.ts";
import type { EventContext, EventDeclaration, Recipient } from "./declaration.ts";
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

  async function tell(tx: Transaction, declaration: EventDeclaration<AppEvent>, event: AppEvent, context: EventContext, auditId: string | null, recipient: Recipient) {
    const email = declaration.email?.(event, context);
    if (declaration.bell) {
      if ("address" in recipient) throw new Error(`${event.kind}: a bell entry goes to a user, not to an address`);
      return notify(tx, { userId: recipient.userId, ...declaration.bell(event, { ...context, auditId }), email });
    }
    if (!email) return null;
    if ("address" in recipient) return mailer.send({ ...email, to: recipient.address, userId: recipient.userId, kind: "transactional" }, { tx });
    // The user's own address, read in the event's transaction.
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, recipient.userId));
    return user ? mailer.send({ ...email, to: user.email, userId: recipient.userId, kind: "transactional" }, { tx }) : null;
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
