/**
 * The e-mail about new messages in a conversation (issue 32): the newest unread message, as
 * text; and the answer to a reply by e-mail that came too late to post (issue 45).
 */
import { REPLY_ADDRESS_DAYS } from "../reply-address.ts";
import { action, divider, paragraph, quote, type EmailMessage } from "../content.ts";

export interface NewMessageEmailInput {
  publicUrl: string;
  senderName: string;
  gigTitle: string;
  threadId: string;
  /** The newest unread message's text (user text: rendered as text, never markup). */
  text: string;
  /** How many messages are unread in the thread (1: only this one). */
  unread: number;
  unsubscribeUrl: string;
  /** The e-mail's Reply-To posts to the conversation (decision 0048): say so. */
  replyByEmail?: boolean;
}

const moreLine = (more: number) => `and ${more} more ${more === 1 ? "message" : "messages"}`;

export function newMessageEmail(p: NewMessageEmailInput): EmailMessage {
  const more = p.unread - 1;
  return {
    subject: `New message from ${p.senderName} about "${p.gigTitle}"`,
    content: [
      paragraph(`${p.senderName} wrote to you about "${p.gigTitle}":`),
      quote(p.text),
      ...(more > 0 ? [paragraph(`This message ${moreLine(more)} are unread in the conversation.`)] : []),
      action("Open the conversation", `${p.publicUrl}/messages/${p.threadId}`),
      ...(p.replyByEmail ? [paragraph("Or reply to this e-mail: your answer is posted to the conversation.")] : []),
      divider(),
      paragraph("You get this because 'E-mail me about new messages' is on for your account."),
      action("Change your e-mail preferences", `${p.publicUrl}/account`),
      action("Unsubscribe", p.unsubscribeUrl, "Turn e-mail about new messages off with one click"),
    ],
  };
}

export interface ReplyExpiredEmailInput {
  publicUrl: string;
  gigTitle: string;
  threadId: string;
}

/** A reply by e-mail to an address past its days: not posted, answer in the product. */
export function replyExpiredEmail(p: ReplyExpiredEmailInput): EmailMessage {
  return {
    subject: `Your reply about "${p.gigTitle}" was not posted`,
    content: [
      paragraph(`Your e-mail reply in the conversation about "${p.gigTitle}" was not posted: a notification's reply address works for ${REPLY_ADDRESS_DAYS} days.`),
      paragraph("Please answer in Digs & Gigs. Newer notifications carry a new reply address."),
      action("Open the conversation", `${p.publicUrl}/messages/${p.threadId}`),
    ],
  };
}
