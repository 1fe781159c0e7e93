/**
 * The e-mails of a quote's outcome (issue 33): accepted, not chosen, declined. Each digger gets
 * one e-mail about the outcome of an accept. The client's first name and reason are text.
 */
import { action, paragraph, type EmailMessage } from "../content.ts";

export const quoteAcceptedLine = (e: { clientFirstName: string; gigTitle: string }) => `${e.clientFirstName} accepted your quote for "${e.gigTitle}"`;
export const quoteNotChosenLine = (e: { gigTitle: string }) => `The client chose another digger for "${e.gigTitle}"`;
export const quoteDeclinedLine = (e: { clientFirstName: string; gigTitle: string }) => `${e.clientFirstName} declined your quote for "${e.gigTitle}"`;

export function quoteAcceptedEmail(p: { publicUrl: string; clientFirstName: string; gigTitle: string; price: string; threadId: string }): EmailMessage {
  return {
    subject: quoteAcceptedLine(p),
    content: [
      paragraph(`${quoteAcceptedLine(p)}: ${p.price}.`, "You are marked as hired for it. Agree the details in your conversation."),
      action("Open the conversation", `${p.publicUrl}/messages/${p.threadId}`),
    ],
  };
}

/** Without the winner's name or price. */
export function quoteNotChosenEmail(p: { publicUrl: string; gigTitle: string }): EmailMessage {
  return {
    subject: quoteNotChosenLine(p),
    content: [paragraph(`${quoteNotChosenLine(p)}.`, "Thank you for quoting. New leads are on Browse Gigs."), action("Browse Gigs", `${p.publicUrl}/browse-gigs`)],
  };
}

export function quoteDeclinedEmail(p: { publicUrl: string; clientFirstName: string; gigTitle: string; reason: string | null; threadId: string }): EmailMessage {
  return {
    subject: quoteDeclinedLine(p),
    content: [
      paragraph(`${quoteDeclinedLine(p)}.`, ...(p.reason ? [`Their reason: ${p.reason}`] : []), "You may send a new quote in your conversation."),
      action("Open the conversation", `${p.publicUrl}/messages/${p.threadId}`),
    ],
  };
}
