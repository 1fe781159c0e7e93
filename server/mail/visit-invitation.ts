/**
 * A visit's calendar invitation (issue 50; docs/decisions/0076-site-visits.md, "The invitation"):
 * one iCalendar object with one VEVENT, built with ical-generator, sent as the e-mail's calendar
 * part (mailer.ts, `calendar`). METHOD:REQUEST for a booking and each change, METHOD:CANCEL for a
 * cancellation; the UID is the visit's id at the site's public host and never changes, SEQUENCE
 * is `visits.sequence` (a change and a cancellation raise it), so a calendar updates or drops the
 * event it added. Times are instants in UTC ('Z', no TZID): the calendar shows them in its own
 * zone, whatever zone each party set here. An exact time is an hour long in the calendar
 * (`EXACT_VISIT_MINUTES`), a window as long as the window.
 *
 * Each recipient gets their own copy: the ORGANIZER is the site (its From address), the reader is
 * an ATTENDEE at their own address, and the other party an ATTENDEE under their name on the
 * thread (the digger's handle, the client's first name) at the thread's reply address signed
 * for the reader (reply-address.ts), which posts into the thread: nobody learns the other's
 * e-mail address from it. What users wrote (the gig's title and location, names) is text: the
 * library escapes it as iCalendar text, so no line of it becomes a property of its own.
 */
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { EmailCalendar } from "./mailer.ts";

/** An exact time's length in a calendar: the visit needs the hour kept free, not a point in time. */
const EXACT_VISIT_MINUTES = 60;

/** A name and an address, as iCalendar's CN and mailto: write them. */
export interface Mailbox {
  name: string;
  address: string;
}

/** "Digs & Gigs <no-reply@example.com>" (MAIL_FROM) read as a name and an address. */
export function mailboxOf(from: string): Mailbox {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  if (match) return { name: match[1]!.trim() || "Digs & Gigs", address: match[2]!.trim() };
  return { name: "Digs & Gigs", address: from.trim() };
}

/** Where a visit ends in a calendar: its window's end, or an hour after an exact time. */
export function visitCalendarEnd(startsAt: Date, windowMinutes: number): Date {
  return new Date(startsAt.getTime() + (windowMinutes > 0 ? windowMinutes : EXACT_VISIT_MINUTES) * 60_000);
}

/** The calendar event's title: "Visit: {gig title}". */
export const visitSummary = (gigTitle: string) => `Visit: ${gigTitle}`;

/** The calendar event's words: who, what, the arrival window, and the thread's link. */
export function visitDescription(p: { otherName: string; gigTitle: string; windowMinutes: number; threadUrl: string }): string {
  const window = p.windowMinutes > 0 ? `Arrival window: ${p.windowMinutes / 60} hour${p.windowMinutes === 60 ? "" : "s"} from the start.` : "At the exact time.";
  return `Site visit with ${p.otherName} about "${p.gigTitle}".\n${window}\nThe conversation: ${p.threadUrl}`;
}

export interface VisitInvitationInput {
  method: EmailCalendar["method"];
  visitId: string;
  /** `visits.sequence`: 0 when booked, one more for each change and for the cancellation. */
  sequence: number;
  startsAt: Date;
  windowMinutes: number;
  gigTitle: string;
  /** The gig's location, as the gig stores it. */
  location: string;
  /** The thread's page (/messages/{id}), in the description and as URL. */
  threadUrl: string;
  /** The site's public host: the UID is `{visit id}@{host}`. */
  host: string;
  /** The site's own From address. */
  organizer: Mailbox;
  /** Both parties as this copy names them: the reader at their own address, the other at the thread's reply address. */
  digger: Mailbox;
  client: Mailbox;
  /** The reader's role: which of the two this copy is for. */
  reader: "digger" | "client";
  /** DTSTAMP: when this copy was made. */
  stamp?: Date;
}

/** The UID of a visit in every calendar: its id at the site's public host. */
const visitUid = (visitId: string, host: string) => `${visitId}@${host}`;

/** The invitation (METHOD:REQUEST) or its cancellation (METHOD:CANCEL), for one reader. */
export function visitInvitation(input: VisitInvitationInput): EmailCalendar {
  const cancel = input.method === "CANCEL";
  const calendar = ical({
    prodId: { company: "Digs & Gigs", product: "Visits", language: "EN" },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const otherName = input.reader === "digger" ? input.client.name : input.digger.name;
  const attendee = (who: Mailbox) => ({
    name: who.name,
    email: who.address,
    role: ICalAttendeeRole.REQ,
    // Both agreed in the thread: no answer is asked of a calendar (its RSVP would go to the site's From address).
    status: ICalAttendeeStatus.ACCEPTED,
    rsvp: false,
  });
  calendar.createEvent({
    id: visitUid(input.visitId, input.host),
    sequence: input.sequence,
    stamp: input.stamp ?? new Date(),
    start: input.startsAt,
    end: visitCalendarEnd(input.startsAt, input.windowMinutes),
    summary: visitSummary(input.gigTitle),
    location: input.location,
    description: visitDescription({ otherName, gigTitle: input.gigTitle, windowMinutes: input.windowMinutes, threadUrl: input.threadUrl }),
    url: input.threadUrl,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: input.organizer.name, email: input.organizer.address },
    attendees: [attendee(input.digger), attendee(input.client)],
  });
  return { method: input.method, content: calendar.toString() };
}
