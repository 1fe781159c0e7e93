/**
 * The shape of one event's declaration (registry.ts): who hears of it, its bell entry, its
 * e-mail, its audit row when an operator did it, the jobs it starts and the live updates it
 * sends. Each part is a function of the event's own data (and the configuration), so the
 * registry holds every sentence and link the product tells people, every job an operation
 * starts and every page it wakes, and operations hand over only facts.
 */
import type { Config } from "../config.ts";
import type { Transaction } from "../db/client.ts";
import type { JobStart } from "../jobs/queue.ts";
import type { OutgoingEmail } from "../mail/mailer.ts";
import type { ReaderTime } from "../reader-time.ts";
import type { OperatorActionInput } from "./audit.ts";
import type { LiveEvent } from "#core/live-events.ts";
import type { ReachGroup } from "#core/reach.ts";

export interface EventContext {
  config: Config;
  /** The event's transaction: a declaration may read what it needs to start its jobs. */
  tx: Transaction;
}

/**
 * What a notice to one recipient is written with: their times, in their zone (issue 47; an
 * address without an account, the site's default). The bell's text is fixed when it is written.
 */
export interface ReaderContext extends EventContext {
  time: ReaderTime;
  /**
   * Whom this copy is for: the user (null: an address without an account) and the address it goes
   * to. A notice written for each recipient apart (a visit's invitation names its reader as
   * themselves and the other party through the thread's reply address) reads it.
   */
  recipient: { userId: string | null; address: string };
}

/**
 * Who an event tells. A user by id: the e-mail goes to their own address, read in the event's
 * transaction (a caller cannot send one user's notice to another's inbox). An address: for an
 * e-mail to someone who may have no account row to read yet (Better Auth's callbacks) or to
 * support; `userId` then records whose it is.
 */
export type Recipient = { userId: string } | { address: string; userId: string | null };

/**
 * The bell's entry (decision 0034: at most one per kind, subject and recipient in 24 hours).
 * Its kind is the event's own (or the declaration's `bellKind`).
 */
interface BellEntry {
  /** What the entry is about (the gig, the issue, the purchase, the operator's decision...). */
  subjectId: string;
  /** One sentence. */
  text: string;
  /** A path on this site. */
  link: string;
}

/**
 * A template's e-mail (server/mail/templates/), always transactional, with its own extras: a Reply-To,
 * a list's unsubscribe address, a calendar part (`calendar`: a visit's invitation, METHOD:REQUEST or
 * METHOD:CANCEL, issue 50).
 */
type EventEmail = Omit<OutgoingEmail, "to" | "userId" | "kind">;

/** A push to the recipient's devices (server/push/): a short title and body, a path on this site. */
interface PushNotice {
  title: string;
  body: string;
  link: string;
}

/**
 * A live update (server/live/, decision 0040): these users' open pages hear of this id when the
 * event's transaction commits. Ids only; each page reads what it shows itself.
 */
export interface LiveUpdate {
  to: readonly string[];
  event: LiveEvent;
}

/** What the README's table "E-mail the product sends" says of the event's e-mail. */
interface ReadmeRow {
  /** The subject as the table writes it ({gig title} for what varies). */
  subject: string;
  /** The "To" column. */
  to: string;
}

export interface EventDeclaration<Data> {
  /** Its recipients; none for an event that only records (an audit row, jobs). */
  to?: (event: Data, context: EventContext) => Recipient | Recipient[] | Promise<Recipient[]>;
  /** The bell's entry, to each recipient (a user); `auditId` is the audit row's, when there is one. */
  bell?: (event: Data, context: ReaderContext & { auditId: string | null }) => BellEntry;
  /** The bell entry's kind when it is another event's (an operator's decision counts as the decision's). */
  bellKind?: string;
  /**
   * The e-mail goes by its own rule (the caller's), not held back with the bell's entry by the
   * once-a-day claim: a thread's unread messages, whose e-mail has its 30-minute window.
   */
  emailApartFromBell?: boolean;
  /** The e-mail, to each recipient (read in the event's transaction when it needs rows: a visit's options, its gig's location). */
  email?: (event: Data, context: ReaderContext) => EventEmail | Promise<EventEmail>;
  /**
   * Its row of How to reach me (core/reach.ts): the recipient's E-mail choice for the group
   * decides the e-mail (unless `mustNotMiss`), their Push choice the push. None: the e-mail
   * always goes (support's, or governed by a setting of its own, like the daily digest).
   */
  group?: ReachGroup;
  /** E-mail a person must not miss (account and security, issue deadlines, refunds, receipts): sent whatever they chose. */
  mustNotMiss?: boolean;
  /** Its push; without one, the bell's line under the group's title, when there is a bell. */
  push?: (event: Data, context: ReaderContext) => PushNotice | null | Promise<PushNotice | null>;
  /** The operator's audit row (audit.ts), written first in the transaction. */
  audit?: (event: Data) => OperatorActionInput;
  /** The jobs it starts, delayed ones with `startAfterSeconds` (server/jobs/starts.ts makes them). */
  jobs?: (event: Data, context: EventContext) => JobStart[] | Promise<JobStart[]>;
  /** Its live updates: who hears of which id (the recipients read from the event's rows, never a caller's guess). */
  live?: (event: Data, context: EventContext) => LiveUpdate[] | Promise<LiveUpdate[]>;
  /** Its row in the README's e-mail table; every declaration with an e-mail has one. */
  readme?: ReadmeRow;
}

declare const DATA: unique symbol;
/** A declaration as written, carrying its data's type (so the registry's types see which parts it has). */
export type Declared<Data, D extends EventDeclaration<Data>> = D & { readonly [DATA]?: Data };

/**
 * Declares one event kind whose data is `Data` (the registry's entries):
 * `declare<{ gigId: string }>()({ to: ..., bell: ... })`. The declaration keeps its own shape
 * (which parts it has), which `NotificationKind` is derived from.
 */
export const declare =
  <Data>() =>
  <D extends EventDeclaration<Data>>(declaration: D): Declared<Data, D> =>
    declaration;

/** The data of a declaration. */
export type DataOf<D> = D extends { readonly [DATA]?: infer Data } ? Data : never;
