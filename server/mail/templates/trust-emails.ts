/** The e-mails of a digger's trust: hires, reviews, reference requests and credential checks. */
import { PRODUCT_NAME } from "#core/product.ts";
import { action, facts, paragraph, type EmailMessage } from "../content.ts";

export function hiredEmail({ publicUrl, gigTitle, diggerId }: { publicUrl: string; gigTitle: string; diggerId: string }): EmailMessage {
  return {
    subject: `You were marked as hired for "${gigTitle}"`,
    content: [
      paragraph(`The client who posted "${gigTitle}" marked you as hired for it.`, "Hires count towards the share of leads you are hired on, shown on your profile."),
      action("Your profile", `${publicUrl}/digger/${diggerId}`),
    ],
  };
}

export function reviewedEmail(p: { publicUrl: string; gigTitle: string; diggerId: string; rating: number; edited: boolean }): EmailMessage {
  return {
    subject: p.edited ? `A client updated their review of you for "${p.gigTitle}"` : `New review for "${p.gigTitle}"`,
    content: [
      paragraph(
        `The client who posted "${p.gigTitle}" ${p.edited ? "updated their review of you" : "reviewed you"}: ${p.rating} out of 5 stars.`,
        "You can read it, and reply once, on your profile.",
      ),
      action("Your profile", `${p.publicUrl}/digger/${p.diggerId}#reviews`),
    ],
  };
}

export function referenceRequestedEmail({ publicUrl, clientName, referenceName }: { publicUrl: string; clientName: string; referenceName: string }): EmailMessage {
  return {
    subject: "New reference contact request",
    content: [
      paragraph(`${clientName} would like the contact details of your reference ${referenceName}.`),
      action("Approve or decline the request", `${publicUrl}/reference-requests`),
    ],
  };
}

/** `line`: "{handle} approved (declined) your request for the contact details of {reference}". */
export function referenceDecidedEmail({ publicUrl, line, approved, diggerId }: { publicUrl: string; line: string; approved: boolean; diggerId: string }): EmailMessage {
  return {
    subject: approved ? "Your reference contact request was approved" : "Your reference contact request was declined",
    content: [paragraph(`${line}.`), action(approved ? "See them on the profile" : "Profile", `${publicUrl}/digger/${diggerId}`)],
  };
}

export function credentialApprovedEmail({ label, badge, until }: { label: string; badge: string; until: string }): EmailMessage {
  return {
    subject: `${label}: verified`,
    content: [
      paragraph(`An operator of ${PRODUCT_NAME} checked your proof of ${label}. Your profile now shows "${badge}".`),
      paragraph(`The verification runs until ${until}. Upload the renewed document before then to keep it.`),
    ],
  };
}

export function credentialRejectedEmail({ label, reason }: { label: string; reason: string }): EmailMessage {
  return {
    subject: `${label}: your proof was not accepted`,
    content: [
      paragraph(`An operator of ${PRODUCT_NAME} could not accept the proof of ${label} you uploaded.`),
      facts(["Reason", reason]),
      paragraph("You can upload another document from your profile editing page."),
    ],
  };
}

export function credentialLapsedEmail({ label, until }: { label: string; until: string }): EmailMessage {
  return {
    subject: `${label}: verification lapsed`,
    content: [
      paragraph(`The verification of your ${label} credential ran until ${until}. Your profile now shows it as self-reported.`),
      paragraph("Upload the renewed document from your profile editing page to have it verified again."),
    ],
  };
}
