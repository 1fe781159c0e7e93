/**
 * The shape of one event's declaration (registry.ts): who hears of it, its bell entry, its
 * e-mail, its audit row when an operator did it, and the jobs it starts. Each part is a
 * function of the event's own data (and the configuration), so the registry holds every
 * sentence and link the product tells people, and operations hand over only facts.
 */
import type { Config } from "../config.ts";
import type { Transaction } from "../db/client.ts";
import type { JobStart } from "../jobs/queue.ts";
import type { OutgoingEmail } from "../mail/mailer.ts";
import type { OperatorActionInput } from "./audit.ts";
import type { NotificationKind } from "./notify.ts";
import type { ReachGroup } from "#core/reach.ts";

export interface EventContext {
  config: Config;
  /** The event's transaction: a declaration may read what it needs to start its jobs. */
  tx: Transaction;
}

/**
 * Who an event tells. A user by id: the e-mail goes to their own address, read in the event's
 * transaction (a caller cannot send one user's notice to another's inbox). An address: for an
 * e-mail to someone who may have no account row to read yet (Better Auth's callbacks) or to
 * support; `userId` then records whose it is.
 */
export type Recipient = { userId: string } | { address: string; userId: string | null };

/** The bell's entry (decision 0034: at most one per kind, subject and recipient in 24 hours). */
export interface BellEntry {
  kind: NotificationKind;
  /** What the entry is about (the gig, the issue, the purchase, the operator's decision...). */
  subjectId: string;
  /** One sentence. */
  text: string;
  /** A path on this site. */
  link: string;
}

/** A template's e-mail (server/mail/templates/), always transactional, with its own extras. */
export type EventEmail = Omit<OutgoingEmail, "to" | "userId" | "kind">;

/** A push to the recipient's devices (server/push/): a short title and body, a path on this site. */
export interface PushNotice {
  title: string;
  body: string;
  link: string;
}

/** What the README's table "E-mail the product sends" says of the event's e-mail. */
export interface ReadmeRow {
  /** The subject as the table writes it ({gig title} for what varies). */
  subject: string;
  /** The "To" column. */
  to: string;
}

export interface EventDeclaration<Data> {
  /** Its recipients; none for an event that only records (an audit row, jobs). */
  to?: (event: Data, context: EventContext) => Recipient | Recipient[];
  /** The bell's entry, to each recipient (a user); `auditId` is the audit row's, when there is one. */
  bell?: (event: Data, context: EventContext & { auditId: string | null }) => BellEntry;
  /** The e-mail, to each recipient. */
  email?: (event: Data, context: EventContext) => EventEmail;
  /**
   * Its row of How to reach me (core/reach.ts): the recipient's E-mail choice for the group
   * decides the e-mail (unless `mustNotMiss`), their Push choice the push. None: the e-mail
   * always goes (support's, or governed by a setting of its own, like the daily digest).
   */
  group?: ReachGroup;
  /** E-mail a person must not miss (account and security, issue deadlines, refunds, receipts): sent whatever they chose. */
  mustNotMiss?: boolean;
  /** Its push; without one, the bell's line under the group's title, when there is a bell. */
  push?: (event: Data, context: EventContext) => PushNotice | null | Promise<PushNotice | null>;
  /** The operator's audit row (audit.ts), written first in the transaction. */
  audit?: (event: Data) => OperatorActionInput;
  /** The jobs it starts (server/jobs/starts.ts makes the ones an operation starts too). */
  jobs?: (event: Data, context: EventContext) => JobStart[] | Promise<JobStart[]>;
  /** Its row in the README's e-mail table; every declaration with an e-mail has one. */
  readme?: ReadmeRow;
}

/** Declares one event kind whose data is `Data` (the registry's entries). */
export const declare = <Data>(declaration: EventDeclaration<Data>): EventDeclaration<Data> => declaration;
