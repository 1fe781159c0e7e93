/**
 * The e-mails of a site visit (issue 50; docs/decisions/0076-site-visits.md): times proposed,
 * other times asked for, booked or moved (with the invitation as the calendar part and 'Add to
 * Google Calendar'), cancelled (and the canceller's own copy), a change asked for, marked after
 * the window, and the reminders 24 hours and 2 hours before it. Every time is written by the
 * event for its reader, in their zone (server/reader-time.ts). Names, the gig's title and
 * location, a note and a reason are text; the links are the template's actions only.
 */
import { VISIT_LATE_HOURS, VISIT_TEXTS, visitBookedLine, type VisitReminderKind } from "#core/visits.ts";
import { action, facts, note, paragraph, quote, type EmailMessage, type EmailPart } from "../content.ts";

/** What every visit e-mail links to: the conversation. */
interface InThread {
  publicUrl: string;
  threadId: string;
  gigTitle: string;
}

const threadUrl = (p: InThread) => `${p.publicUrl}/messages/${p.threadId}`;
const openConversation = (p: InThread, label = "Open the conversation") => action(label, threadUrl(p));
/** When, where and with whom: the facts of a booked visit (a location the gig left blank is left out). */
const visitFacts = (p: { window: string; location: string; otherName: string }): EmailPart =>
  facts(["When", p.window], ...(p.location.trim() ? [["Where", p.location] as const] : []), ["With", p.otherName]);

/** The bell's line and the e-mail's subject: '{handle} proposed times for a visit about "{gig title}"'. */
export const visitProposedLine = (e: { handle: string; gigTitle: string; reschedule: boolean }) =>
  `${e.handle} ${e.reschedule ? "proposed new times for your visit" : "proposed times for a visit"} about "${e.gigTitle}"`;

/** To the client: the times in their zone, and the digger's note as quoted text. */
export function visitProposedEmail(p: InThread & { handle: string; reschedule: boolean; options: string[]; note: string | null }): EmailMessage {
  const line = visitProposedLine(p);
  return {
    subject: line,
    content: [
      paragraph(`${line}.`, "Book the time that suits you, or ask for other times, in your conversation. The times are in your time zone."),
      facts(...p.options.map((option, i) => [p.options.length === 1 ? "Time" : `Time ${i + 1}`, option] as const)),
      ...(p.note ? [paragraph(`${p.handle}'s note:`), quote(p.note)] : []),
      openConversation(p, "Choose a time"),
    ],
  };
}

export const otherTimesAskedLine = (e: { clientName: string; gigTitle: string }) => `${e.clientName} asked for other times for a visit about "${e.gigTitle}"`;

/** To the digger: none of their times suits the client. */
export function otherTimesAskedEmail(p: InThread & { clientName: string }): EmailMessage {
  const line = otherTimesAskedLine(p);
  return {
    subject: line,
    content: [paragraph(`${line}.`, "None of the times you proposed suits them: propose new times in your conversation."), openConversation(p, "Propose new times")],
  };
}

/** The subject of a booking, or of a booked visit's move ('Visit moved: …'). */
const visitBookedSubject = (window: string, moved: boolean) => (moved ? `Visit moved: ${window}` : visitBookedLine(window));

/** To each party: the visit, the invitation (the mailer's calendar part) and 'Add to Google Calendar'. */
export function visitBookedEmail(p: InThread & { window: string; moved: boolean; otherName: string; location: string; googleCalendarUrl: string }): EmailMessage {
  return {
    subject: visitBookedSubject(p.window, p.moved),
    content: [
      paragraph(p.moved ? `Your visit with ${p.otherName} about "${p.gigTitle}" has a new time.` : `Your visit with ${p.otherName} about "${p.gigTitle}" is booked.`),
      visitFacts(p),
      paragraph(
        p.moved
          ? "The invitation in this e-mail updates the visit in your calendar app."
          : "The invitation in this e-mail adds the visit to your calendar app; a change or a cancellation updates it there.",
      ),
      openConversation(p),
      action(VISIT_TEXTS.addToGoogle, p.googleCalendarUrl),
    ],
  };
}

const visitCancelledSubject = (window: string) => `Visit cancelled: ${window}`;

/**
 * To the other party of a cancellation (both, for the system's: a suspension or a block), with
 * the canceller's reason as quoted text and 'Late cancellation' when it came within 24 hours
 * of the window; the calendar part (METHOD:CANCEL) drops the visit from their calendar.
 */
export function visitCancelledEmail(p: InThread & { window: string; byName: string | null; reason: string | null; late: boolean }): EmailMessage {
  return {
    subject: visitCancelledSubject(p.window),
    content: [
      paragraph(
        p.byName === null
          ? `Your visit about "${p.gigTitle}" on ${p.window} was cancelled by Digs & Gigs: it can no longer take place through this conversation.`
          : `${p.byName} cancelled your visit about "${p.gigTitle}" on ${p.window}.`,
      ),
      ...(p.late ? [note(`${VISIT_TEXTS.lateCancellation}: less than ${VISIT_LATE_HOURS} hours before the window.`)] : []),
      ...(p.reason ? [paragraph(p.byName ? `${p.byName}'s reason:` : "The reason:"), quote(p.reason)] : []),
      paragraph("The calendar invitation in this e-mail removes the visit from your calendar app."),
      openConversation(p),
    ],
  };
}

const visitCancelCopySubject = (window: string) => `You cancelled the visit: ${window}`;

/** The canceller's own copy: their calendar drops the visit too (METHOD:CANCEL). */
export function visitCancelCopyEmail(p: InThread & { window: string; otherName: string }): EmailMessage {
  return {
    subject: visitCancelCopySubject(p.window),
    content: [
      paragraph(`You cancelled your visit with ${p.otherName} about "${p.gigTitle}" on ${p.window}. We told ${p.otherName}.`),
      paragraph("The calendar invitation in this e-mail removes the visit from your calendar app."),
      openConversation(p),
    ],
  };
}

export const changeRequestedLine = (e: { clientName: string; gigTitle: string }) => `${e.clientName} needs to change the visit for "${e.gigTitle}"`;

/** To the digger: the client's Need to change (from the thread or the reminder's link). */
export function changeRequestedEmail(p: InThread & { clientName: string; window: string }): EmailMessage {
  const line = changeRequestedLine(p);
  return {
    subject: line,
    content: [
      paragraph(`${line}, booked for ${p.window}.`, "Propose new times in your conversation, or cancel the visit."),
      openConversation(p, "Propose new times"),
    ],
  };
}

/** To the other side of a mark after the window ('Visited', 'Client was not there', 'Digger did not come'). */
export function visitMarkedEmail(p: InThread & { line: string }): EmailMessage {
  return {
    subject: p.line,
    content: [
      paragraph(`${p.line}.`, "Marks of the two sides that contradict each other count in neither side's record of kept visits."),
      openConversation(p),
    ],
  };
}

/**
 * 'Reminder: your visit is on …' (24 hours before the window; the sweep may send it a few hours
 * late, so it names the day rather than saying "tomorrow") or 'Your visit starts soon: …' (2 hours).
 */
export const visitReminderLine = (kind: VisitReminderKind, window: string) => (kind === "day" ? `Reminder: your visit is on ${window}` : `Your visit starts soon: ${window}`);

/**
 * A reminder to one party. The client's 24-hour one carries Confirm and Need to change: signed
 * links (mail/visit-answer-token.ts) whose page asks before it changes anything.
 */
export function visitReminderEmail(
  p: InThread & { reminder: VisitReminderKind; window: string; otherName: string; location: string; clientConfirmed: boolean; answers: { confirm: string; change: string } | null },
): EmailMessage {
  return {
    subject: visitReminderLine(p.reminder, p.window),
    content: [
      paragraph(`A reminder of your visit with ${p.otherName} about "${p.gigTitle}".`),
      visitFacts(p),
      ...(p.clientConfirmed ? [note(VISIT_TEXTS.clientConfirmed)] : []),
      ...(p.answers
        ? [
            paragraph("Can you still make it? Confirm the visit, or tell the digger you need another time."),
            action(VISIT_TEXTS.confirm, p.answers.confirm),
            action(VISIT_TEXTS.needToChange, p.answers.change),
          ]
        : []),
      openConversation(p),
    ],
  };
}
