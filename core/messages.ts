/**
 * Conversations (issue 32): the send and report forms' schemas, the words the pages show, how
 * each party is named, and a message's text split into text and links (never markup).
 */
import { z } from "zod";
import type { MessageAttachmentView } from "./message-attachments.ts";
import { formatCount } from "./money.ts";
import type { QuoteCard } from "./quote-views.ts";
import type { NextVisitView, VisitCard } from "./visit-views.ts";
import { quotedPrice, type QuotePrice } from "./quotes.ts";
import { reviewerName } from "./reviews.ts";

export const MESSAGE_MAX = 5000;
/** A thread page shows its newest this many messages and quote cards; 'Show earlier messages' goes further back. */
export const THREAD_PAGE_SIZE = 50;
const MESSAGE_REPORT_REASON_MIN = 10;
export const MESSAGE_REPORT_REASON_MAX = 500;

export const MESSAGE_TEXTS = {
  empty: "Please write a message",
  tooLong: `A message can be at most ${formatCount(MESSAGE_MAX)} characters`,
  notSent: "Message could not be sent. Try again.",
  tooFast: "You are sending messages too fast. Try again in a minute.",
  suspended: "Your account is suspended: you cannot send messages.",
  deleted: "Your account has been deleted: you cannot send messages.",
  sent: "Message sent",
  unread: "Unread",
  read: "Read",
  deletedUser: "Deleted user",
  deletedMessage: "Message deleted",
  removed: "Message removed by Digs & Gigs",
  emptyForClient: "No messages yet.",
  showEarlier: "Show earlier messages",
  noThreads: "No conversations yet.",
  signedOut: "Please sign in to see your messages",
  blocked: "Blocked",
  unblocked: "Unblocked",
  reported: "Message reported",
  reportAlready: "You already reported this message",
  reasonRequired: `Please tell us why (at least ${MESSAGE_REPORT_REASON_MIN} characters)`,
  reasonTooLong: `The reason can be at most ${MESSAGE_REPORT_REASON_MAX} characters`,
  messageNotFound: "Message not found",
  hidden: "Message hidden. Both parties see it as removed.",
  kept: "Message kept. Its reports are closed.",
  noOpenReports: "This message has no open reports.",
  /** The inbox's prefix of my own last message. */
  you: "You: ",
} as const;

/** A thread's last quote event as the inbox previews it (issue 47): 'Sent a quote: $1,450.00', 'Quote accepted', ... */
export function quoteEventText(status: QuoteCard["status"], revised: boolean, price: QuotePrice): string {
  switch (status) {
    case "open":
    case "replaced":
      return `${revised ? "Revised the quote" : "Sent a quote"}: ${quotedPrice(price)}`;
    case "accepted":
      return "Quote accepted";
    case "declined":
      return "Quote declined";
    case "withdrawn":
      return "Quote withdrawn";
    case "not_chosen":
      return "Not chosen";
  }
}

/**
 * The inbox's line under the other party's name, as fits its reader: a digger reads the
 * client's first name and the gig ('Mona · Patch a drywall hole'), a client the digger's
 * handle ('@ace-plumbing · Patch a drywall hole').
 */
export function inboxSubtitle(other: { role: "digger" | "client"; deleted: boolean }, name: string, gigTitle: string): string {
  const who = other.deleted ? MESSAGE_TEXTS.deletedUser : other.role === "digger" ? `@${name}` : name;
  return `${who} · ${gigTitle}`;
}

/** The digger's first line in an empty thread; the client sees MESSAGE_TEXTS.emptyForClient. */
export const emptyThreadForDigger = (name: string) => `No messages yet. Say hello and tell ${name} how you can help.`;
export const youBlockedText = (name: string) => `You blocked ${name}`;
export const blockedByText = (name: string) => `You can no longer message ${name}`;

/** The send form: text of 1 to 5,000 characters (trimmed), as the database's check has it. */
export const messageSchema = z.object({
  body: z
    .string({ error: MESSAGE_TEXTS.empty })
    .trim()
    .min(1, MESSAGE_TEXTS.empty)
    .refine((body) => [...body].length <= MESSAGE_MAX, MESSAGE_TEXTS.tooLong),
});

export const messageReportSchema = z.object({
  messageId: z.uuid({ error: MESSAGE_TEXTS.messageNotFound }),
  reason: z
    .string({ error: MESSAGE_TEXTS.reasonRequired })
    .trim()
    .min(MESSAGE_REPORT_REASON_MIN, MESSAGE_TEXTS.reasonRequired)
    .refine((reason) => [...reason].length <= MESSAGE_REPORT_REASON_MAX, MESSAGE_TEXTS.reasonTooLong),
});

export const messageModerationSchema = z.object({
  intent: z.enum(["hide", "keep"], { error: "Unknown action" }),
  messageId: z.uuid({ error: MESSAGE_TEXTS.messageNotFound }),
});

/** How a party is named to the other: the digger's handle, the client's first name and last initial; 'Deleted user' once gone. */
export function partyName(party: { role: "digger" | "client"; deleted: boolean; handle: string | null; fullName: string | null }): string {
  if (party.deleted) return MESSAGE_TEXTS.deletedUser;
  if (party.role === "digger") return party.handle?.trim() || MESSAGE_TEXTS.deletedUser;
  return reviewerName(party.fullName);
}

/** The first name of the client (or the digger's handle), for the digger's empty thread. */
export function firstNameOrHandle(party: { role: "digger" | "client"; deleted: boolean; handle: string | null; fullName: string | null }): string {
  if (party.role === "client" && !party.deleted) return (party.fullName ?? "").trim().split(/\s+/)[0] || partyName(party);
  return partyName(party);
}

/** The first line of a text, for the inbox. */
export function firstLine(text: string, max = 120): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : line;
}

export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * A message's text as text and links: only http(s) addresses become links (their href is the
 * address as written, checked to parse as http or https); everything else stays text.
 */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const raw = match[0];
    const address = raw.replace(TRAILING, "");
    const start = match.index;
    let href: string | null = null;
    try {
      const url = new URL(address);
      if (url.protocol === "http:" || url.protocol === "https:") href = url.href;
    } catch {
      href = null;
    }
    if (!href || address.length === 0) continue;
    if (start > at) parts.push({ kind: "text", text: text.slice(at, start) });
    parts.push({ kind: "link", text: address, href });
    at = start + address.length;
  }
  if (at < text.length) parts.push({ kind: "text", text: text.slice(at) });
  return parts;
}

/** A thread as the inbox lists it. */
export interface InboxThread {
  id: string;
  otherName: string;
  gigTitle: string;
  /** '{client first name} · {gig title}' to a digger, '@{handle} · {gig title}' to a client. */
  subtitle: string;
  /**
   * The thread's last event: a quote's ('Sent a quote: $1,450.00', 'Revised the quote: ...', 'Quote accepted', 'Quote declined',
   * 'Quote withdrawn', 'Not chosen') or the last message's first line ('You: ' before mine; 'Message removed by Digs & Gigs',
   * 'Message deleted'); null: nothing yet.
   */
  lastEvent: string | null;
  lastActivityAt: string;
  /** Its time as the reader reads a list's ('5 min ago', 'Yesterday, 3:40 PM'), written by the server. */
  lastActivityText: string;
  unread: boolean;
}

/** A message as the thread shows it; `body` is empty when hidden or deleted (`state` says which). */
export interface ThreadMessage {
  id: string;
  seq: number;
  mine: boolean;
  body: string;
  state: "shown" | "hidden" | "deleted";
  createdAt: string;
  /** When it was sent, in the reader's zone ('Nov 28, 2026, 7:47 PM CST'), written by the server. */
  createdText: string;
  /** Its attachments (none when hidden or deleted). */
  attachments: MessageAttachmentView[];
}

/** One entry of a thread's list: a message, a quote card (issue 33) or a visit card (issue 50) where it was sent, with its current status. */
export type ThreadItem = { kind: "message"; message: ThreadMessage } | { kind: "quote"; quote: QuoteCard } | { kind: "visit"; visit: VisitCard };

export interface ThreadView {
  id: string;
  role: "digger" | "client";
  otherName: string;
  /** The client's first name or the digger's handle, for the digger's empty thread. */
  otherFirstName: string;
  gigTitle: string;
  gigId: string;
  /** The gig's status and whether it was closed as filled: the client's next step after an accept (AcceptedNotice). */
  gig: { id: string; status: string; filled: boolean; openForMore: boolean };
  /** The digger's profile id, for the client's Thread menu (a client has no public profile): null for the digger, or once deleted. */
  otherProfileId: string | null;
  /** The page's messages, quote and visit cards in the order they were sent (the newest 50, oldest first). */
  items: ThreadItem[];
  /** The thread's next booked visit not yet over (issue 50): the banner 'Visit booked: …' at the top. */
  nextVisit: NextVisitView | null;
  /** Visits may be arranged here: no block either way, my account not suspended, the other's not deleted, the lead not refunded in full. */
  visitsAllowed: boolean;
  /** Cursor for 'Show earlier messages' (the oldest shown item's created_at and seq), or null: nothing earlier. */
  earlierCursor: string | null;
  /** The other party has read up to my message of this seq, at this time: 'Read' goes under my last such message. */
  readByOther: { seq: number; at: string; text: string } | null;
  iBlocked: boolean;
  blockedMe: boolean;
  /** The other party's account is deleted or mine is suspended: the box is gone. */
  canSend: boolean;
  /**
   * This load marked the thread read: the top bar's count, read by the root loader alongside,
   * is one too many, so the page loads it again.
   */
  markedRead: boolean;
  /**
   * The digger's Review {first name} in the thread's menu (issue 51): the lead's purchase and the
   * client's first name, while the lead has a review window; null for the client, and without one.
   */
  clientReview: { purchaseId: string; firstName: string } | null;
}
