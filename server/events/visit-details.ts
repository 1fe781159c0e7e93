/**
 * What a visit's e-mail to one of its parties is written with beyond the event's facts (issue
 * 50), read in the event's transaction, like live-updates.ts reads the threads' rows: which party
 * the reader is, the gig's location as the gig stores it, the invitation made for this reader
 * (mail/visit-invitation.ts: the reader at their own address, the other party at the thread's
 * reply address signed for the reader, so neither learns the other's address) with its 'Add to
 * Google Calendar' link, and a proposal's options. The times themselves are the reader's
 * (`ReaderContext.time`).
 */
import { asc, eq } from "drizzle-orm";
import { gigs, leadPurchases, threads, users, visitOptions, visitProposals } from "../db/schema.ts";
import { googleCalendarLink } from "../mail/google-calendar-link.ts";
import type { EmailCalendar } from "../mail/mailer.ts";
import { replyAddress } from "../mail/reply-address.ts";
import { mailboxOf, visitCalendarEnd, visitDescription, visitInvitation, visitSummary, type Mailbox } from "../mail/visit-invitation.ts";
import type { ReaderContext } from "./declaration.ts";

/** A visit's event facts (issue 50): its thread, both parties, and the names and title the notices use. */
export interface VisitFacts {
  threadId: string;
  diggerUserId: string;
  clientId: string;
  gigTitle: string;
  /** The digger's handle and the client's first name. */
  handle: string;
  clientName: string;
}
/** A booked visit's time as the event saw it: `sequence` counts its changes (iCalendar's SEQUENCE). */
export interface VisitTime {
  visitId: string;
  sequence: number;
  /** ISO instants. */
  startsAt: string;
  windowMinutes: number;
}
type VisitEventFacts = VisitFacts & VisitTime;

/** One party's copy of a booked (or cancelled) visit's e-mail. */
export interface VisitCopy {
  role: "digger" | "client";
  /** The other party as the thread names them: the digger's handle, the client's first name. */
  otherName: string;
  location: string;
  threadUrl: string;
  /** The invitation for this reader: METHOD:REQUEST (booked, moved) or METHOD:CANCEL. */
  calendar: EmailCalendar;
  googleCalendarUrl: string;
}

/** The thread's party a copy is for: the recipient, who must be one of the two. */
function roleOf(e: Pick<VisitEventFacts, "diggerUserId" | "clientId">, context: ReaderContext): "digger" | "client" {
  const { userId } = context.recipient;
  if (userId === e.diggerUserId) return "digger";
  if (userId === e.clientId) return "client";
  throw new Error("a visit's e-mail goes to one of its two parties");
}

/** The gig's location, as the gig stores it, and the reader's reply key generation (which signs their reply address). */
async function readRows(context: ReaderContext, threadId: string) {
  const [row] = await context.tx
    .select({ location: gigs.location, replyKeyGeneration: users.replyKeyGeneration })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(users, eq(users.id, context.recipient.userId ?? ""))
    .where(eq(threads.id, threadId));
  if (!row) throw new Error(`visit e-mail: no thread ${threadId} or no reader`);
  return row;
}

/**
 * The other party's address in this reader's invitation: the thread's reply address signed for
 * the reader (a message to it is posted in the thread as theirs, decision 0048). Without reply by
 * e-mail (no INBOUND_DOMAIN in production), an address in the reserved .invalid domain that
 * reaches nobody: the name alone says who it is.
 */
function otherAddress(e: VisitEventFacts, context: ReaderContext, role: "digger" | "client", replyKeyGeneration: number): string {
  const { config, recipient } = context;
  if (config.inbound && recipient.userId) return replyAddress(config.inbound, config.authSecret, e.threadId, { id: recipient.userId, replyKeyGeneration });
  return `${role === "digger" ? "client" : "digger"}.${e.visitId}@visits.invalid`;
}

/** The reader's copy of a booked or cancelled visit: their role, the other's name, the invitation and its Google link. */
export async function visitCopy(e: VisitEventFacts, context: ReaderContext, method: EmailCalendar["method"]): Promise<VisitCopy> {
  const role = roleOf(e, context);
  const { location, replyKeyGeneration } = await readRows(context, e.threadId);
  const { config } = context;
  const threadUrl = `${config.publicUrl}/messages/${e.threadId}`;
  const own: Mailbox = { name: role === "digger" ? e.handle : e.clientName, address: context.recipient.address };
  const other: Mailbox = { name: role === "digger" ? e.clientName : e.handle, address: otherAddress(e, context, role, replyKeyGeneration) };
  const startsAt = new Date(e.startsAt);
  const calendar = visitInvitation({
    method,
    visitId: e.visitId,
    sequence: e.sequence,
    startsAt,
    windowMinutes: e.windowMinutes,
    gigTitle: e.gigTitle,
    location,
    threadUrl,
    host: new URL(config.publicUrl).hostname,
    organizer: mailboxOf(config.mailFrom),
    digger: role === "digger" ? own : other,
    client: role === "client" ? own : other,
    reader: role,
  });
  const googleCalendarUrl = googleCalendarLink({
    title: visitSummary(e.gigTitle),
    start: startsAt,
    end: visitCalendarEnd(startsAt, e.windowMinutes),
    details: visitDescription({ otherName: other.name, gigTitle: e.gigTitle, windowMinutes: e.windowMinutes, threadUrl }),
    location,
  });
  return { role, otherName: other.name, location, threadUrl, calendar, googleCalendarUrl };
}

/** A reminder's reader: their role, the other party's name and the gig's location. */
export async function visitReader(e: VisitEventFacts, context: ReaderContext): Promise<{ role: "digger" | "client"; otherName: string; location: string }> {
  const role = roleOf(e, context);
  const { location } = await readRows(context, e.threadId);
  return { role, otherName: role === "digger" ? e.clientName : e.handle, location };
}

/** A proposal's options in the order written, each in the reader's zone ("Tue, Dec 8, 9:00 – 11:00 AM CST"), and its note. */
export async function proposalForReader(context: ReaderContext, proposalId: string): Promise<{ options: string[]; note: string | null }> {
  const rows = await context.tx
    .select({ startsAt: visitOptions.startsAt, windowMinutes: visitOptions.windowMinutes, note: visitProposals.note })
    .from(visitOptions)
    .innerJoin(visitProposals, eq(visitProposals.id, visitOptions.proposalId))
    .where(eq(visitOptions.proposalId, proposalId))
    .orderBy(asc(visitOptions.position));
  return { options: rows.map((row) => context.time.visitWindow(row.startsAt, row.windowMinutes)), note: rows[0]?.note ?? null };
}
