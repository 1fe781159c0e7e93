/**
 * Visits as the thread shows them (issue 50): a proposal's card where it was sent, with its
 * options and, once booked, its visit's state; every time in it is text written by the server in
 * the reader's zone (server/reader-time.ts), never formatted by the browser. What the reader may
 * do now is decided by the server too (server/conversations/visits/thread-visits.ts); the
 * operations check it again.
 */
import type { VisitOutcome, VisitProposalStatus } from "./visits.ts";

/** One proposed time. */
interface VisitOptionView {
  position: number;
  /** ISO instant of its start (for `<time dateTime>`). */
  startsAt: string;
  /** 'Tue, Dec 8, 9:00 – 11:00 AM CST', in the reader's zone. */
  windowText: string;
  /** 'Book Tue, Dec 8, 9:00 AM', in the reader's zone. */
  bookLabel: string;
  /** The reader (the client) may book it now: the proposal open, its start ahead. */
  bookable: boolean;
}

/** A mark of how the visit went, by one side. */
export interface VisitMarkView {
  side: "digger" | "client";
  outcome: VisitOutcome;
  /** 'Visited', 'Client was not there', 'Digger did not come'. */
  text: string;
  /** 'Marked by you' / 'Marked by {name}'. */
  by: string;
}

/** A booked visit as its current proposal's card shows it. */
export interface VisitStateView {
  id: string;
  status: "booked" | "cancelled";
  /** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST', in the reader's zone. */
  bookedLine: string;
  startsAt: string;
  confirmed: boolean;
  changeRequested: boolean;
  /** 'Cancelled by {name}: {reason}' and whether it was a late cancellation. */
  cancelled: { line: string; late: boolean } | null;
  marks: VisitMarkView[];
  /** What the reader may do now. */
  actions: {
    /** The digger's new times for it (the Propose a visit form), until the window opens. */
    reschedule: boolean;
    /** Either party, until the window opens. */
    cancel: boolean;
    /** A cancellation now would be 'Late cancellation' (within 24 hours of the window). */
    lateIfCancelled: boolean;
    /** The client's Confirm and Need to change, until the window opens. */
    confirm: boolean;
    change: boolean;
    /** The marks the reader may still give (after the window, within 7 days, once). */
    marks: VisitOutcome[];
  };
}

/** A proposal's card (server/conversations/visits/thread-visits.ts). */
export interface VisitCard {
  id: string;
  status: VisitProposalStatus;
  /** New times for a booked visit (Reschedule). */
  reschedule: boolean;
  /** The digger's note: user text, shown as text. */
  note: string | null;
  options: VisitOptionView[];
  bookedPosition: number | null;
  /** 'Replaced by new times', 'Asked for other times', 'Withdrawn', 'Moved to new times'; null while open or booked. */
  statusText: string | null;
  /** The reader (the client) may book an option or ask for other times. */
  canAnswer: boolean;
  /** A booked proposal that is still its visit's current one: the visit's state. */
  visit: VisitStateView | null;
  createdAt: string;
}

/** The thread's next booked visit (not yet over), for the banner at the top of the thread. */
export interface NextVisitView {
  id: string;
  /** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST', and the window alone. */
  line: string;
  window: string;
  /** Its window has not opened: new times may still move it. */
  upcoming: boolean;
}

/** What the digger's Propose a visit form needs (view-thread.ts), or null when they may not propose. */
export interface VisitFormState {
  /** The digger's zone, which the form's times are in. */
  zone: string;
  /** The digger's today and the last day a time may be on (YYYY-MM-DD): the date picker's bounds. */
  today: string;
  lastDay: string;
  /** The booked visit the new times would move ('Tue, Dec 8, 9:00 – 11:00 AM CST'), or null. */
  rescheduling: string | null;
}
