/**
 * The e-mails of a hire's two-way reviews (issue 51, docs/decisions/0077-two-way-reviews.md): the
 * other side reviewed you (and the reminder), and both reviews are shown. Nothing of a review
 * itself: while the window is blind its rating and text are its writer's alone. Names and the
 * gig's title are text in both parts (content.ts), never links.
 */
import { REVIEW_WINDOW_DAYS } from "#core/two-way-reviews.ts";
import { action, paragraph, type EmailMessage } from "../content.ts";

/**
 * To the side of a blind window that has not reviewed yet. `subject`: the bell's line ('{name}
 * reviewed you. Write yours by {date} to see it.'); `date` the window's end in the reader's zone.
 */
export function reviewWaitingEmail(p: {
  publicUrl: string;
  subject: string;
  writerName: string;
  gigTitle: string;
  date: string;
  recipientSide: "client" | "digger";
  reminder: boolean;
}): EmailMessage {
  const toDigger = p.recipientSide === "digger";
  return {
    subject: p.subject,
    content: [
      paragraph(
        p.reminder ? `Reminder: ${p.writerName} reviewed you for "${p.gigTitle}", and yours is still to write.` : `${p.writerName} reviewed you for "${p.gigTitle}".`,
        `Neither of you sees the other's review until both have reviewed, or until the ${REVIEW_WINDOW_DAYS} days after the hire end on ${p.date}. Write yours by then and both are shown at once.`,
      ),
      toDigger ? action("Review the client on My Leads", `${p.publicUrl}/my-leads`) : action("Review the digger on My Gigs", `${p.publicUrl}/my-gigs`),
    ],
  };
}

/** To both parties once a hire's reviews are shown. `subject`: the bell's line. */
export function reviewsPublishedEmail(p: { publicUrl: string; subject: string; gigTitle: string; toDigger: boolean; diggerId: string }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(
        `The reviews of the hire for "${p.gigTitle}" are now shown, and can no longer be changed.`,
        p.toDigger ? "Reviews of you are on your profile, where you can reply once to each." : "Reviews of you from diggers are on your account page.",
      ),
      p.toDigger ? action("Your profile", `${p.publicUrl}/digger/${p.diggerId}#reviews`) : action("Your account", `${p.publicUrl}/account#client-reviews`),
    ],
  };
}
