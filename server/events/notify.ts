/**
 * How an event tells a user that something happened: `notify(tx, notice)` records the bell's
 * entry and the e-mail in the caller's transaction, so the event, its entry and its e-mail
 * commit together or not at all, and every event has both. The e-mail always goes to the
 * notified user's own address, read here in the same transaction: a caller cannot send one
 * user's notice to another's inbox.
 *
 * A notice goes at most once per kind, subject and recipient in 24 hours (decision 0034): a
 * repeated event (hire, unhire, hire; close as filled, reopen, close; a review edited five
 * times) tells its user the first time, and the later ones in the window are dropped, bell and
 * e-mail alike (and the push, decision 0052). The `notice_sends` row is taken here, in the event's transaction, so two
 * servers repeating the event at once still send one.
 *
 * Only `emit` (server/events/emit.ts) calls it, for an event whose declaration has a bell
 * entry (server/events/registry.ts; decision 0036); ESLint forbids it elsewhere in server/.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Transaction } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import type { Mailer, OutgoingEmail } from "../mail/mailer.ts";
import { claimNoticeStatement } from "./notice-sends.ts";
import type { NotificationKind } from "./registry.ts";

interface Notice {
  userId: string;
  /** The user's own address, read in this transaction (emit's `reachOf`): the e-mail goes there. */
  address: string;
  kind: NotificationKind;
  /**
   * What the notice is about (the gig, the issue, the review, the purchase...): the same kind
   * about the same subject goes to a user once in 24 hours. An event that must always be told
   * gets a subject of its own (each issue, each operator decision).
   */
  subjectId: string;
  /** What the bell shows: one sentence. */
  text: string;
  /** Where the action is: a path on this site ("/my-leads"). */
  link: string;
  /**
   * The e-mail of the same event (transactional), to the user's own address; none: the bell
   * only. A template's e-mail (server/mail/templates/: subject, heading, content) and any other
   * field of the mailer's e-mail pass through.
   */
  email?: Omit<OutgoingEmail, "to" | "userId" | "kind">;
  /**
   * What else goes only when the notice is told (the event's push, decision 0052), run in the
   * same transaction: the once-a-day rule holds it back with the entry and the e-mail.
   */
  alsoWhenTold?: (tx: Transaction) => Promise<unknown>;
}

/**
 * Records the notice; returns the e-mail's row id (null: no e-mail, none could be recorded, or
 * the same notice went less than 24 hours ago).
 */
export type Notify = (tx: Transaction, notice: Notice) => Promise<string | null>;

/** The bell's longest text (the table's check allows 500). */
const MAX_TEXT = 300;

export function createNotify(mailer: Mailer): Notify {
  return async (tx, { userId, address, kind, subjectId, text, link, email, alsoWhenTold }) => {
    if (!link.startsWith("/") || link.startsWith("//")) throw new Error(`a notification's link is a path on this site, not ${link}`);
    const shown = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
    // The claim and the bell's row in one statement: no row when the notice went within 24 hours.
    const told = await queryRows<{ told: number }>(
      tx,
      sql`with claimed as (${claimNoticeStatement(userId, kind, subjectId)})
        insert into ${notifications} (user_id, kind, text, link) select ${userId}, ${kind}, ${shown}, ${link} from claimed
        returning 1 as told`,
    );
    if (told.length === 0) return null;
    await alsoWhenTold?.(tx);
    return email ? mailer.send({ ...email, to: address, userId, kind: "transactional" }, { tx }) : null;
  };
}
