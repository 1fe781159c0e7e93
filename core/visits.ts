/**
 * Site visits booked in the thread (issue 50, docs/decisions/0076-site-visits.md): the digger
 * proposes one to three times, each a day, a start and an arrival window, in their own zone; the
 * client books one or asks for other times. Every label, message and limit of visits is here;
 * times are written for each reader by the server (server/reader-time.ts: `visitWindow`,
 * `visitStart`).
 */
import { z } from "zod";
import { wallClockInstant } from "./dates.ts";

/** Arrival windows in minutes: exact, 1, 2 or 4 hours. */
export const VISIT_WINDOWS = [0, 60, 120, 240] as const;
export type VisitWindow = (typeof VISIT_WINDOWS)[number];
export const VISIT_WINDOW_LABELS: Record<VisitWindow, string> = {
  0: "Exact time",
  60: "1-hour window",
  120: "2-hour window",
  240: "4-hour window",
};

export const VISIT_OPTIONS_MAX = 3;
export const VISIT_NOTE_MAX = 500;
export const VISIT_REASON_MAX = 200;
/** An option starts at least this long after it is proposed, and at most this many days on. */
const VISIT_MIN_AHEAD_HOURS = 2;
export const VISIT_MAX_AHEAD_DAYS = 60;
/** A cancellation this close to the window's start is a 'Late cancellation'. */
export const VISIT_LATE_HOURS = 24;
/**
 * Until when `side` may still mark a visit: 7 days after its window closed, or 7 days after the
 * other side marked it if that was later, so that a mark made at the last moment can still be
 * answered (issue 50: 'Client was not there' on day 7 would otherwise stand unanswered).
 */
export function markDeadline(visit: { endsAt: Date; diggerMarkedAt: Date | null; clientMarkedAt: Date | null }, side: "digger" | "client"): Date {
  const other = side === "digger" ? visit.clientMarkedAt : visit.diggerMarkedAt;
  const from = Math.max(visit.endsAt.getTime(), other?.getTime() ?? 0);
  return new Date(from + VISIT_MARK_DAYS * 24 * 3600_000);
}

/** At most this many proposals in one thread in 24 hours: each one e-mails the client. */
export const VISIT_PROPOSALS_PER_DAY = 5;
/** After the window closes, each side may mark the visit within this many days. */
const VISIT_MARK_DAYS = 7;
/** The reminders: 24 hours ("day") and 2 hours ("hours") before the window opens (`visit_reminders.kind`, migration 0055). */
export type VisitReminderKind = "day" | "hours";
/** 'Kept {k} of {n} visits' and the count it shows from: core/kept-visits.ts (no zod for the public pages). */
export { keptVisitsLine } from "./kept-visits.ts";

export type VisitProposalStatus = "open" | "booked" | "replaced" | "other_times" | "withdrawn";
export type VisitCanceller = "digger" | "client" | "system";
export type DiggerVisitOutcome = "visited" | "client_absent";
export type ClientVisitOutcome = "digger_absent";
export type VisitOutcome = DiggerVisitOutcome | ClientVisitOutcome;

export const VISIT_TEXTS = {
  // The thread: the '+' sheet's item, the form, the card.
  propose: "Propose a visit",
  sendProposal: "Send times",
  addTime: "Add another time",
  removeTime: "Remove this time",
  date: "Date",
  startTime: "Start time",
  window: "Arrival window",
  note: "Note (optional)",
  yourZone: (zone: string) => `Times in your time zone (${zone}).`,
  askOtherTimes: "Ask for other times",
  otherTimesAsked: "Asked for other times",
  replaced: "Replaced by new times",
  withdrawn: "Withdrawn",
  /** A booked proposal whose visit a later one moved (its card stays where it was sent). */
  moved: "Moved to new times",
  /** The Propose a visit form, when the thread has a booked visit: the new times move it. */
  reschedulingNote: (booked: string) => `New times for the visit booked for ${booked}: it stays at that time until the client picks one.`,
  waiting: "Waiting for the client to pick a time",
  proposedTimes: "Proposed times for a visit",
  newTimes: "New times for the visit",
  reschedule: "Reschedule",
  cancel: "Cancel visit",
  keep: "Keep visit",
  reason: "Reason",
  lateCancellation: "Late cancellation",
  clientConfirmed: "Client confirmed",
  changeRequested: "Client needs to change the time",
  /** The client's own card after Need to change. */
  changeRequestedByYou: "You told the digger you need to change the time",
  cancelTitle: "Cancel this visit?",
  cancelTold: (name: string) => `${name} is told at once.`,
  lateWarning: "The visit is less than 24 hours away: it will be marked 'Late cancellation'.",
  howItWent: "How did the visit go?",
  markedBy: (who: string) => `Marked by ${who}`,
  confirm: "Confirm",
  needToChange: "Need to change",
  visited: "Visited",
  clientAbsent: "Client was not there",
  diggerAbsent: "Digger did not come",
  addToGoogle: "Add to Google Calendar",
  // /visits
  visits: "Visits",
  upcoming: "Upcoming",
  past: "Past",
  none: "No visits yet. Visits you book in a conversation show here.",
  listSubtitle: "The visits you booked in your conversations: upcoming first, then past.",
  openThread: "Open conversation",
  signedOut: "Please sign in to see your visits",
  // Toasts.
  proposed: "Times sent",
  booked: "Visit booked",
  askedOtherTimes: "We asked for other times",
  cancelled: "Visit cancelled",
  marked: "Thanks: we noted how the visit went",
  confirmed: "Visit confirmed",
  changeAsked: "We told the digger you need to change the time",
} as const;

/** The marks' labels (buttons and what the card says once marked); the digger marks the first two, the client the third. */
export const VISIT_OUTCOME_LABELS: Record<VisitOutcome, string> = {
  visited: VISIT_TEXTS.visited,
  client_absent: VISIT_TEXTS.clientAbsent,
  digger_absent: VISIT_TEXTS.diggerAbsent,
};
/** Which side may mark each outcome. */
export const VISIT_OUTCOME_SIDE: Record<VisitOutcome, "digger" | "client"> = { visited: "digger", client_absent: "digger", digger_absent: "client" };

/** 'Book Tue, Dec 8, 9:00 AM': `start` as server/reader-time.ts's `visitStart` writes it. */
export const bookLabel = (start: string) => `Book ${start}`;
/** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST': `window` as `visitWindow` writes it. */
export const visitBookedLine = (window: string) => `Visit booked: ${window}`;
/** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST with d_handle': a gig's card on /my-gigs, naming the digger. */
export const visitBookedWithLine = (window: string, name: string) => `${visitBookedLine(window)} with ${name}`;
/** 'With Casey' / 'With d_handle': the other party of a visit in /visits. */
export const visitWithLine = (name: string) => `With ${name}`;
/** 'Cancelled by {name}: {reason}', or 'Cancelled' (the system's, with its notice). */
export const cancelledLine = (by: string | null, reason: string | null) => (by ? `Cancelled by ${by}${reason ? `: ${reason}` : ""}` : "Cancelled");

/** A visit as /visits lists it (issue 50): its texts written by the server, in the reader's zone. */
export interface VisitListItem {
  id: string;
  threadId: string;
  /** Upcoming: booked and its window not yet closed; past: closed or cancelled. */
  part: "upcoming" | "past";
  /** The start as an instant (ISO), for the `<time>` element. */
  startsAt: string;
  /** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST' */
  line: string;
  gigTitle: string;
  /** 'With Casey' (a digger reads the client's first name) or 'With d_handle' (a client reads the digger's handle). */
  withLine: string;
  /** 'Cancelled by Casey: …', 'Cancelled' (the system's), or null. */
  cancelled: string | null;
  /** What else stands: 'Late cancellation', 'Client confirmed', 'Client needs to change the time', the marks. */
  states: string[];
}

/** The server's refusals. */
export const VISIT_ANSWERS = {
  onlyDigger: "Only the digger of this conversation can propose a visit",
  onlyClient: "Only the client of this conversation can book a visit",
  refunded: "This lead was fully refunded: a visit cannot be booked",
  notOpen: "These times are no longer open",
  notFound: "Visit not found",
  cancelled: "This visit was cancelled",
  started: "The visit's window has opened: it can no longer be changed",
  notEnded: "You can say how the visit went once its window has closed",
  markClosed: `Visits can be marked within ${VISIT_MARK_DAYS} days of their window`,
  alreadyMarked: "You already said how this visit went",
  blocked: "You cannot book a visit in this conversation",
  proposalsPerDay: `You proposed times ${VISIT_PROPOSALS_PER_DAY} times in this conversation today. Try again tomorrow, or write a message.`,
  suspended: "Your account is suspended: you cannot arrange visits.",
  onlyClientAnswers: "Only the client of this conversation can answer for the visit",
  notYourMark: "That is for the other party of the visit to say",
  proposedMeanwhile: "New times were just sent in this conversation. Reload the page to see them.",
  linkInvalid: "This link is not valid. Open the visit in your messages instead.",
  linkOld: "This visit has changed since this e-mail. Open the visit in your messages to see its time.",
} as const;

/** The form's messages. */
export const VISIT_FIELD_MESSAGES = {
  noTime: "Please give at least one time",
  tooMany: `Give at most ${VISIT_OPTIONS_MAX} times`,
  date: "Please pick a date",
  time: "Please pick a start time",
  window: "Please pick an arrival window",
  skipped: "That time does not exist on that day: the clocks change",
  tooSoon: `Please pick a time at least ${VISIT_MIN_AHEAD_HOURS} hours from now`,
  tooFar: `Please pick a time within ${VISIT_MAX_AHEAD_DAYS} days`,
  same: "Each time must be different",
  noteTooLong: `A note must be at most ${VISIT_NOTE_MAX} characters`,
  reasonMissing: "Please give a reason",
  reasonTooLong: `A reason must be at most ${VISIT_REASON_MAX} characters`,
} as const;

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const optionInput = z.object({
  date: z
    .string({ error: VISIT_FIELD_MESSAGES.date })
    .regex(/^\d{4}-\d{2}-\d{2}$/, VISIT_FIELD_MESSAGES.date)
    // A day of the calendar: not 30 February (which Date would read as 2 March), not month 13.
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day, VISIT_FIELD_MESSAGES.date),
  time: z.string({ error: VISIT_FIELD_MESSAGES.time }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, VISIT_FIELD_MESSAGES.time),
  window: z.coerce
    .number({ error: VISIT_FIELD_MESSAGES.window })
    .refine((value): value is VisitWindow => (VISIT_WINDOWS as readonly number[]).includes(value), VISIT_FIELD_MESSAGES.window),
});

interface VisitOptionInput {
  /** As written (YYYY-MM-DD, HH:MM, in the proposer's zone) and the instant it names there. */
  date: string;
  time: string;
  window: VisitWindow;
  startsAt: Date;
}
export interface VisitProposalInput {
  options: VisitOptionInput[];
  note: string | null;
}

/**
 * Propose a visit's form (fields `options.{n}.date`, `options.{n}.time`, `options.{n}.window`,
 * n from 0, and `note`): one to three different times, each read as a wall clock in `zone` (the
 * digger's) and at least 2 hours and at most 60 days after `now`.
 */
export function visitProposalSchema(zone: string, now: Date): z.ZodType<VisitProposalInput> {
  return z
    .object({
      options: z.array(optionInput, { error: VISIT_FIELD_MESSAGES.noTime }).min(1, VISIT_FIELD_MESSAGES.noTime).max(VISIT_OPTIONS_MAX, VISIT_FIELD_MESSAGES.tooMany),
      note: z.preprocess(blankToUndefined, z.string().trim().max(VISIT_NOTE_MAX, VISIT_FIELD_MESSAGES.noteTooLong).optional()),
    })
    .transform((form, ctx) => {
      const options: VisitOptionInput[] = [];
      form.options.forEach((option, n) => {
        const startsAt = wallClockInstant(option.date, option.time, zone);
        const issue = (message: string) => ctx.addIssue({ code: "custom", message, path: ["options", n, "time"] });
        if (!startsAt) return issue(VISIT_FIELD_MESSAGES.skipped);
        const ahead = startsAt.getTime() - now.getTime();
        if (ahead < VISIT_MIN_AHEAD_HOURS * 3600_000) return issue(VISIT_FIELD_MESSAGES.tooSoon);
        if (ahead > VISIT_MAX_AHEAD_DAYS * 24 * 3600_000) return issue(VISIT_FIELD_MESSAGES.tooFar);
        if (options.some((other) => other.startsAt.getTime() === startsAt.getTime() && other.window === option.window)) return issue(VISIT_FIELD_MESSAGES.same);
        options.push({ date: option.date, time: option.time, window: option.window as VisitWindow, startsAt });
      });
      return { options, note: form.note && form.note.length > 0 ? form.note : null };
    }) as unknown as z.ZodType<VisitProposalInput>;
}

/** Which proposal, option or visit a form acts on: ids as sent (the operation checks they are the thread's). */
export const visitChoiceSchema = z.object({
  proposalId: z.string().optional(),
  visitId: z.string().optional(),
  position: z.coerce.number().int().min(0).max(VISIT_OPTIONS_MAX - 1).optional(),
});

/** Cancel a visit: a reason, 1 to 200 characters. */
export const visitCancelSchema = z.object({
  visitId: z.string().optional(),
  reason: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() : value),
    z.string({ error: VISIT_FIELD_MESSAGES.reasonMissing }).min(1, VISIT_FIELD_MESSAGES.reasonMissing).max(VISIT_REASON_MAX, VISIT_FIELD_MESSAGES.reasonTooLong),
  ),
});

/** How the visit went, once, after the window: the digger's two marks and the client's one. */
export const visitMarkSchema = z.object({
  visitId: z.string().optional(),
  outcome: z.enum(["visited", "client_absent", "digger_absent"], { error: "Please choose how the visit went" }),
});

/** The client's signed Confirm / Need to change link's page (/visit-reply, from the 24-hour reminder). */
export const VISIT_LINK_TEXTS = {
  title: "Your visit",
  about: (gigTitle: string, handle: string) => `Visit about "${gigTitle}" with ${handle}`,
  askConfirm: "Confirm that you will be there at this time.",
  askChange: (handle: string) => `Tell ${handle} you need another time: they can propose new times or cancel the visit.`,
  alreadyConfirmed: "You already confirmed this visit.",
  busy: "Sending...",
  openMessages: "Open your messages",
  signedInHint: "Signed in? The visit is in your conversation, under Messages.",
} as const;
