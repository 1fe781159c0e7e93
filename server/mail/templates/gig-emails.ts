/** The e-mails about a gig's standing: filled, hidden and shown again by an operator, paused by the reply guarantee. */
import { PRODUCT_NAME } from "#core/product.ts";
import { action, facts, paragraph, type EmailMessage } from "../content.ts";

/** To each digger who bought the gig's lead. */
export function gigFilledEmail({ publicUrl, gigTitle }: { publicUrl: string; gigTitle: string }): EmailMessage {
  return {
    subject: `The gig "${gigTitle}" has been filled`,
    content: [
      paragraph(`The client who posted "${gigTitle}" has hired someone and closed the gig.`, "You bought this lead; nothing more to do for it."),
      action("Your leads", `${publicUrl}/my-leads`),
    ],
  };
}

export function gigHiddenEmail({ gigTitle, reason }: { gigTitle: string; reason: string }): EmailMessage {
  return {
    subject: `Your gig "${gigTitle}" was hidden`,
    content: [
      paragraph(`An operator of ${PRODUCT_NAME} hid your gig "${gigTitle}": it is no longer shown to diggers, and its lead cannot be bought.`),
      facts(["Reason", reason]),
      paragraph("Diggers who already bought the lead keep your contact details. If you think this is a mistake, reply through the Contact page."),
    ],
  };
}

export function gigRestoredEmail({ gigTitle }: { gigTitle: string }): EmailMessage {
  return {
    subject: `Your gig "${gigTitle}" is shown again`,
    content: [paragraph(`An operator of ${PRODUCT_NAME} restored your gig "${gigTitle}": diggers can find it again.`)],
  };
}

/**
 * To the client whose gig the reply guarantee paused (issue 48): diggers wrote and nobody opened
 * their threads, so the lead is not sold until the client opens one.
 */
export function gigAwaitingReplyEmail({ publicUrl, subject, gigTitle }: { publicUrl: string; subject: string; gigTitle: string }): EmailMessage {
  return {
    subject,
    content: [
      paragraph(
        `Diggers who bought the lead for "${gigTitle}" wrote to you and are waiting for your answer.`,
        "Until you open one of their messages, your gig is paused: it is not shown to other diggers and its lead is not sold.",
      ),
      paragraph("Open your messages to read them; your gig is listed again as soon as you do."),
      action("Your messages", `${publicUrl}/messages`),
    ],
  };
}
