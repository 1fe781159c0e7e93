/** The e-mails of a lead's life: bought, unavailable, and its issue (reported, reminded, decided). */
import { action, facts, note, paragraph, quote, type EmailMessage } from "../content.ts";

export function leadBoughtEmail(p: { publicUrl: string; clientName: string; line: string; price: string; diggerId: string }): EmailMessage {
  return {
    subject: p.line,
    content: [
      paragraph(`Hello ${p.clientName},`),
      paragraph(`${p.line} (${p.price}), so they can now see your contact details and may get in touch.`),
      action("Their profile", `${p.publicUrl}/digger/${p.diggerId}`),
      action("Open My Gigs", `${p.publicUrl}/my-gigs`, "You can see and manage your gigs on My Gigs"),
    ],
  };
}

export function leadUnavailableEmail(p: { subject: string; diggerName: string; why: "full" | "gone"; gigTitle: string; price: string; holdMinutes: number }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(`Hello ${p.diggerName},`),
      paragraph(
        p.why === "full"
          ? `Every spot on the lead for "${p.gigTitle}" was taken before your payment went through: your checkout held a spot for ${p.holdMinutes} minutes, and another digger bought it after that. Your payment of ${p.price} has been refunded in full.`
          : `The gig "${p.gigTitle}" was closed or taken down before your payment went through, so its lead is no longer available. Your payment of ${p.price} has been refunded in full.`,
      ),
      paragraph("You can find other leads on Browse Gigs."),
    ],
  };
}

/** The digger's own words are quoted as text: their links are never made into buttons or anchors. */
export function issueReportedEmail(p: {
  publicUrl: string;
  subject: string;
  businessName: string;
  handle: string;
  gigTitle: string;
  issueType: string;
  refundPercentage: number;
  description: string;
  respondBy: string;
}): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(`${p.businessName} (@${p.handle}), who bought the lead for your gig "${p.gigTitle}", reported an issue.`),
      facts(["Issue", p.issueType], ["Refund requested", `${p.refundPercentage}% of the lead price`]),
      quote(p.description),
      action("View Issues on My Gigs", `${p.publicUrl}/my-gigs`, "Approve or reject the refund under View Issues"),
      note(`${p.respondBy}: an issue not answered by then is approved automatically and the digger refunded.`),
    ],
  };
}

export function issueReminderEmail(p: { publicUrl: string; gigTitle: string; issueType: string; respondBy: string }): EmailMessage {
  return {
    subject: `Reminder: respond to the issue on your gig "${p.gigTitle}"`,
    content: [
      paragraph(`A digger reported an issue (${p.issueType}) on the lead for your gig "${p.gigTitle}", and it is still waiting for you.`),
      note(`${p.respondBy}: an issue not approved or rejected by then is approved automatically and the digger refunded.`),
      action("Open My Gigs", `${p.publicUrl}/my-gigs`, "Approve or reject it under View Issues"),
    ],
  };
}

/**
 * To the client whose issue was approved by its deadline, or at once: a Wrong Phone Number report
 * on a number they had not verified when the lead was bought (issue 49).
 */
export function issueAutoApprovedEmail(p: ClientIssue & { unverifiedPhone?: boolean }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      p.unverifiedPhone
        ? paragraph(
            `A digger who bought the lead for your gig "${p.gigTitle}" reported that its phone number is wrong (${p.issueType}).`,
            "The number was not verified when they bought the lead, so the report was approved at once",
            `and the digger is refunded ${p.refund} (${p.refundPercentage}% of the lead price). You pay nothing.`,
          )
        : paragraph(
            `A digger reported an issue (${p.issueType}) on the lead for your gig "${p.gigTitle}".`,
            `It was not approved or rejected by ${p.respondBy}, so it was approved automatically`,
            `and the digger is refunded ${p.refund} (${p.refundPercentage}% of the lead price). You pay nothing.`,
          ),
      ...(p.unverifiedPhone ? [note("Check the phone number on your gig and verify it on My Gigs, so that diggers can reach you.")] : []),
      action("Your gigs", `${p.publicUrl}/my-gigs`),
    ],
  };
}

type ClientIssue = { publicUrl: string; subject: string; gigTitle: string; issueType: string; respondBy: string; refund: string; refundPercentage: number };

/** To the client: an issue they did not answer in time was decided by an operator (decision 0031). */
export function issueOperatorDecidedEmail(p: ClientIssue & { approved: boolean }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(
        `A digger reported an issue (${p.issueType}) on the lead for your gig "${p.gigTitle}".`,
        `It was not approved or rejected by ${p.respondBy}, so Digs & Gigs decided it:`,
        p.approved
          ? `approved, and the digger is refunded ${p.refund} (${p.refundPercentage}% of the lead price). You pay nothing.`
          : "rejected, and no refund is made.",
      ),
      action("Your gigs", `${p.publicUrl}/my-gigs`),
    ],
  };
}

/** To the digger: the client's (or the deadline's) decision on their report. */
export function issueDecidedEmail(p: { publicUrl: string; subject: string; outcome: string }): EmailMessage {
  return { subject: p.subject, content: [paragraph(p.outcome), action("Your leads", `${p.publicUrl}/my-leads`)] };
}

/** To the digger whose lead the reply guarantee refunded (issue 48). */
export function guaranteeRefundedEmail(p: { publicUrl: string; subject: string; refund: string; waitHours: number }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(
        `You wrote to the client within a day of buying, and ${p.waitHours} hours later they had not opened your thread, replied, decided a quote or hired anyone.`,
        `So the reply guarantee refunds your lead in full: ${p.refund} goes back to your card.`,
      ),
      paragraph("The thread stays open: if the client writes, you can still answer."),
      action("Your leads", `${p.publicUrl}/my-leads`),
    ],
  };
}

/** To the digger whose reply guarantee refund past their bound an operator declined (issue 48). */
export function guaranteeDeclinedEmail(p: { publicUrl: string; subject: string; perDigger: number; windowDays: number }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(
        `You already had ${p.perDigger} refunds by the reply guarantee in ${p.windowDays} days, so Digs & Gigs reviewed this one, and declined it: the purchase stays paid.`,
        "The thread stays open: if the client writes, you can still answer.",
      ),
      action("Your leads", `${p.publicUrl}/my-leads`),
    ],
  };
}

/** To each buyer of a gig taken down after a fake-request report was approved (issue 48). */
export function gigRemovedRefundEmail(p: { publicUrl: string; subject: string; refund: string }): EmailMessage {
  return {
    subject: p.subject,
    content: [
      paragraph(`Digs & Gigs reviewed this gig and took it down, so what you paid for its lead is refunded: ${p.refund} goes back to your card.`),
      action("Your leads", `${p.publicUrl}/my-leads`),
    ],
  };
}
