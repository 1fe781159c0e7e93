/**
 * The one way an operation tells of an event: `emit(tx, { kind, ...data })`, in the event's
 * own transaction, so the change, its audit row, its bell entries, its e-mails and its jobs
 * commit together or not at all. What each kind does is declared once in registry.ts; here
 * is only the machinery, in this order: the audit row (audit.ts), then for each recipient
 * the bell entry with its e-mail and push (notify.ts: once per kind, subject and recipient in
 * 24 hours) or the e-mail and push alone, then the jobs (the job queue), then the live updates
 * (live/publish.ts: sent at the commit), then the reactions another area registered for the
 * kind (`Reactions`: a change of that area's own rows, in the same transaction).
 *
 * Outside this module, only the job queue itself (server/jobs/), the mailer's and push's own
 * delivery and the live hub start jobs or send live updates (ESLint's rule in eslint.config.js).
 *
 * Better Auth's e-mail callbacks have no transaction of theirs: they pass the database, and
 * emit opens one of its own.
 */
import { ALWAYS_EMAILED, DEFAULT_REACH, REACH_PUSH_TITLES, URGENT_GROUPS } from "#core/reach.ts";
import type { Config } from "../config.ts";
import type { Database, Transaction } from "../db/client.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import { publishLive } from "../live/publish.ts";
import { pushToUser } from "../push/send.ts";
import { reachOf } from "../reach/preferences.ts";
import { readerTime } from "../reader-time.ts";
import { recordOperatorAction } from "./audit.ts";
import type { EventContext, EventDeclaration, ReaderContext, Recipient } from "./declaration.ts";
import type { Notify } from "./notify.ts";
import { EVENTS, type EventData, type EventKind, type NotificationKind } from "./registry.ts";

/** An event: its kind and its data, checked against the kind's declaration. */
type AppEvent = { [K in EventKind]: { kind: K } & EventData<K> }[EventKind];

export interface Emitted {
  /** The audit row's id, when the event has one. */
  auditId: string | null;
  /** Each recipient's e-mail row, in the order of `to` (null: none recorded, e.g. told less than a day ago). */
  emailIds: Array<string | null>;
}

export type Emit = (db: Transaction | Database, event: AppEvent) => Promise<Emitted>;

/**
 * What another area does, in the event's transaction, when an event of a kind happens: the
 * conversations' quotes reopen when a hire is removed (reviews/hires.ts knows nothing of
 * quotes). Wired by server/services.ts, so this module imports no area.
 */
export type Reactions = { [K in EventKind]?: (tx: Transaction, event: Extract<AppEvent, { kind: K }>, emit: Emit) => Promise<void> };

const isTransaction = (db: Transaction | Database): db is Transaction => "rollback" in db;

export function createEmit({ config, mailer, jobs, notify, reactions = {} }: { config: Config; mailer: Mailer; jobs: JobQueue; notify: Notify; reactions?: Reactions }): Emit {
  async function run(tx: Transaction, event: AppEvent): Promise<Emitted> {
    const declaration = EVENTS[event.kind] as EventDeclaration<AppEvent>;
    const context: EventContext = { config, tx };
    const auditId = declaration.audit ? await recordOperatorAction(tx, declaration.audit(event)) : null;
    const emailIds: Array<string | null> = [];
    const recipients = declaration.to ? [await declaration.to(event, context)].flat() : [];
    for (const recipient of recipients) emailIds.push(await tell(tx, declaration, event, context, auditId, recipient));
    for (const job of (await declaration.jobs?.(event, context)) ?? []) {
      await jobs.send(job.name, job.data as never, { tx, startAfterSeconds: job.startAfterSeconds });
    }
    for (const update of (await declaration.live?.(event, context)) ?? []) await publishLive(tx, update.to, update.event);
    const reaction = reactions[event.kind] as ((tx: Transaction, event: AppEvent, emit: Emit) => Promise<void>) | undefined;
    await reaction?.(tx, event, emit);
    return { auditId, emailIds };
  }

  /**
   * One recipient: the bell entry (always), the e-mail by their E-mail choice for the event's
   * group unless it is one they must not miss, and the push by their Push choice (How to reach
   * me, server/reach/): `push.send` jobs in this transaction, never sent in the request.
   */
  async function tell(tx: Transaction, declaration: EventDeclaration<AppEvent>, event: AppEvent, eventContext: EventContext, auditId: string | null, recipient: Recipient) {
    const userId = recipient.userId;
    const reach = userId ? await reachOf(tx, userId, declaration.group) : null;
    // A user recipient who does not exist is told nothing; an address is written to (Better
    // Auth's callbacks may name an account its own transaction has not committed yet).
    if (!("address" in recipient) && !reach) return null;
    // Written in the recipient's zone; an address alone, or an account with none, in the default (issue 47).
    const address = "address" in recipient ? recipient.address : reach!.address;
    const context: ReaderContext = { ...eventContext, time: readerTime(reach?.timeZone, config), recipient: { userId, address } };
    const choice = reach ?? DEFAULT_REACH;
    const emailed = !declaration.group || declaration.mustNotMiss || ALWAYS_EMAILED.has(declaration.group) || choice.email;
    const email = emailed ? await declaration.email?.(event, context) : undefined;
    const bell = declaration.bell?.(event, { ...context, auditId });
    let push: ((within: Transaction) => Promise<unknown>) | undefined;
    if (userId && reach?.push && declaration.group && config.push) {
      const notice = declaration.push ? await declaration.push(event, context) : bell ? { title: REACH_PUSH_TITLES[declaration.group], body: bell.text, link: bell.link } : null;
      const urgency = URGENT_GROUPS.has(declaration.group) ? "high" : "normal";
      if (notice) push = (within) => pushToUser(within, jobs, userId, { ...notice, urgency });
    }
    if (bell) {
      if (!userId || "address" in recipient || !reach) throw new Error(`${event.kind}: a bell entry goes to a user, not to an address`);
      const kind = (declaration.bellKind ?? event.kind) as NotificationKind;
      // The push goes with the bell's entry: held back with it by the once-a-day rule (decision 0052).
      if (!declaration.emailApartFromBell) return notify(tx, { userId, kind, ...bell, address: reach.address, email, alsoWhenTold: push });
      await notify(tx, { userId, kind, ...bell, address: reach.address, alsoWhenTold: push });
      push = undefined;
    }
    await push?.(tx);
    if (!email) return null;
    if ("address" in recipient) return mailer.send({ ...email, to: recipient.address, userId, kind: "transactional" }, { tx });
    // The user's own address, read in the event's transaction.
    return mailer.send({ ...email, to: reach!.address, userId, kind: "transactional" }, { tx });
  }

  const emit: Emit = (db, event) => (isTransaction(db) ? run(db, event) : db.transaction((tx) => run(tx, event)));
  return emit;
}

/**
 * The events that tell nobody and start no job: an audit row, a live update. Emitted where
 * there is no mailer nor job queue (`npm run operator`) or none is needed (a thread marked read).
 */
export type RecordOnlyEvent = Extract<AppEvent, { kind: RecordOnlyKind }>;
type RecordOnlyKind = {
  [K in EventKind]: (typeof EVENTS)[K] extends { to: unknown } | { jobs: unknown } ? never : (typeof EVENTS)[K] extends { audit: unknown } | { live: unknown } ? K : never;
}[EventKind];

const cannot = () => {
  throw new Error("an event that only records neither tells anyone nor starts a job");
};
const recordOnly = createEmit({
  config: {} as Config,
  mailer: { send: cannot, deliver: cannot, close: cannot },
  jobs: { send: cannot } as unknown as JobQueue,
  notify: cannot,
});

export const emitRecord = (db: Transaction | Database, event: RecordOnlyEvent): Promise<Emitted> => recordOnly(db, event);
