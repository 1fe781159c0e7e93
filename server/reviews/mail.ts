/**
 * What earned trust tells a digger (issue 20), through notify (the bell and an e-mail, in the
 * transaction of the hire or the review): a client marked them as hired, a client reviewed them.
 * They name the gig and link to the digger's profile, and carry nothing private of the client's.
 */
import type { Transaction } from "../db/client.ts";
import { hiredEmail, reviewedEmail } from "../mail/templates/trust-emails.ts";
import type { Notify } from "../notifications/notify.ts";

interface Recipient {
  /** The purchase the hire or the review rests on: the notice's subject. */
  id: string;
  userId: string;
  email: string;
  diggerId: string;
}

export function notifyHired(tx: Transaction, notify: Notify, publicUrl: string, to: Recipient, gigTitle: string) {
  return notify(tx, {
    userId: to.userId,
    kind: "hire.marked",
    subjectId: to.id,
    text: `You were marked as hired for "${gigTitle}"`,
    link: `/digger/${to.diggerId}`,
    email: hiredEmail({ publicUrl, gigTitle, diggerId: to.diggerId }),
  });
}

export function notifyReviewed(
  tx: Transaction,
  notify: Notify,
  publicUrl: string,
  to: Recipient,
  gigTitle: string,
  rating: number,
  edited: boolean,
) {
  return notify(tx, {
    userId: to.userId,
    kind: "review.received",
    subjectId: to.id,
    text: edited ? `A client updated their review of you for "${gigTitle}"` : `New review for "${gigTitle}": ${rating} out of 5 stars`,
    link: `/digger/${to.diggerId}#reviews`,
    email: reviewedEmail({ publicUrl, gigTitle, diggerId: to.diggerId, rating, edited }),
  });
}
