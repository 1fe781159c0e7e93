/**
 * The one way to tell a user that something happened: `notify(tx, notice)` records the bell's
 * entry and the e-mail in the caller's transaction, so the event, its entry and its e-mail
 * commit together or not at all, and every event has both. The e-mail always goes to the
 * notified user's own address, read here in the same transaction: a caller cannot send one
 * user's notice to another's inbox.
 *
 * From a job handler: `await db.transaction((tx) => services.notify(tx, { userId, kind, ... }))`.
 */
import { eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { notifications, users } from "../db/schema.ts";
import type { Mailer, OutgoingEmail } from "../mail/mailer.ts";

/** Each event that notifies someone (README, "E-mail the product sends"). */
export type NotificationKind =
  | "lead.bought"
  | "lead.unavailable"
  | "lead.alert"
  | "issue.reported"
  | "issue.reminder"
  | "issue.auto-approved"
  | "issue.decided"
  | "reference.requested"
  | "reference.decided"
  | "gig.filled"
  | "hire.marked"
  | "review.received"
  | "gig.hidden"
  | "gig.restored"
  | "review.hidden"
  | "credential.approved"
  | "credential.rejected"
  | "credential.lapsed";

export interface Notice {
  userId: string;
  kind: NotificationKind;
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
}

/** Records the notice; returns the e-mail's row id (null: no e-mail, or none could be recorded). */
export type Notify = (tx: Transaction, notice: Notice) => Promise<string | null>;

/** The bell's longest text (the table's check allows 500). */
const MAX_TEXT = 300;

export function createNotify(mailer: Mailer): Notify {
  return async (tx, { userId, kind, text, link, email }) => {
    if (!link.startsWith("/") || link.startsWith("//")) throw new Error(`a notification's link is a path on this site, not ${link}`);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) return null;
    const shown = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
    await tx.insert(notifications).values({ userId, kind, text: shown, link });
    return email ? mailer.send({ ...email, to: user.email, userId, kind: "transactional" }, { tx }) : null;
  };
}
