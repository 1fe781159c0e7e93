/**
 * The e-mails of earned trust (issue 20), plain text through the mailer: a digger is told when
 * a client marks them as hired and when a client reviews them. Transactional; they name the gig
 * and link to the digger's profile, and carry nothing private of the client's.
 */
import type { Mailer } from "../mail/mailer.ts";

interface Recipient {
  userId: string;
  email: string;
  diggerId: string;
}

export function mailHired(mailer: Mailer, publicUrl: string, to: Recipient, gigTitle: string) {
  return mailer.send({
    to: to.email,
    userId: to.userId,
    kind: "transactional",
    subject: `You were marked as hired for "${gigTitle}"`,
    text: [
      `The client who posted "${gigTitle}" marked you as hired for it.`,
      "Hires count towards the share of leads you are hired on, shown on your profile.",
      "",
      `Your profile: ${publicUrl}/digger/${to.diggerId}`,
    ].join("\n"),
  });
}

export function mailReviewed(mailer: Mailer, publicUrl: string, to: Recipient, gigTitle: string, rating: number, edited: boolean) {
  return mailer.send({
    to: to.email,
    userId: to.userId,
    kind: "transactional",
    subject: edited ? `A client updated their review of you for "${gigTitle}"` : `New review for "${gigTitle}"`,
    text: [
      `The client who posted "${gigTitle}" ${edited ? "updated their review of you" : "reviewed you"}: ${rating} out of 5 stars.`,
      "You can read it, and reply once, on your profile.",
      "",
      `Your profile: ${publicUrl}/digger/${to.diggerId}#reviews`,
    ].join("\n"),
  });
}
