/** The shapes of gigs as lists show them, shared by the server's queries and the pages. */
import type { PhoneStatus } from "./phone-verification.ts";

/** An open gig on Browse Gigs: public fields only. */
export interface GigSummary {
  id: string;
  title: string;
  description: string;
  location: string;
  timeline: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  categoryName: string;
  /** ISO time with microseconds. */
  createdAt: string;
  /** 'Posted 3 hours ago', written by the server (the browser formats no time, issue 47). */
  posted: string;
  purchaseCount: number;
  /** The cap on buyers, and the spots taken: its completed purchases (checkouts do not fill a lead, decision 0030). */
  maxDiggers: number;
  spotsTaken: number;
  leadPriceCents: number;
  /** The first line of the client's record (issue 48, `clientRecordLines`): 'New client', 'Replied to 5 of 6 diggers'...; null: none to show. */
  clientRecord: string | null;
  /** The client's rating from diggers' published reviews (issue 51, `clientRatingLine`): '4.8 from 3 diggers'; null: none yet. */
  clientRating: string | null;
  /** 'Phone verified' or 'Phone not verified' (issue 49), never the number; null: no phone, or phone verification off. */
  phoneStatus: PhoneStatus | null;
}

/** One of a client's own gigs on My Gigs. */
export interface OwnGig {
  id: string;
  title: string;
  description: string;
  status: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  categoryName: string;
  createdAt: string;
  purchaseCount: number;
  /** Closed with 'Yes, I hired someone' (only a gig with purchases). */
  filled: boolean;
  /** An operator hid it (issue 22): the owner sees why; null while it is shown. */
  hiddenReason: string | null;
  /** No purchase of it completed: it may be deleted (checkouts started for it do not count, decision 0030). */
  deletable: boolean;
  /** Quotes open and not past their end (issue 33): 'Compare Quotes ({n})'. */
  openQuotes: number;
  /** Public: its client confirmed their e-mail (decision 0012). */
  published: boolean;
  /** A digger is hired for it (issue 47): off sale unless `openForMore`. */
  hired: boolean;
  /** 'Keep it open for more diggers': on sale though hired. */
  openForMore: boolean;
  /** 'Posted 3 hours ago', written by the server (the browser formats no time, issue 47). */
  posted: string;
  /** The diggers hired, first hired first: 'Hired: {handle}' with Message. */
  hires: GigHire[];
  /** Its phone's status (issue 49): 'Phone verified', 'Phone not verified' (with 'Verify this number'), or null (no phone, or verification off). */
  phoneStatus: PhoneStatus | null;
  /** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST with d_handle': the soonest visit of its threads, booked and not over (issue 50); null: none. */
  visitBooked: string | null;
}

/** A digger hired for one of my gigs, and the thread with them (null only for a hire without a purchase's thread). */
export interface GigHire {
  handle: string;
  threadId: string | null;
}

/** A gig's fields as its form shows them (editing): text as typed, budgets in dollars, "" for none. */
export interface GigFormValues {
  title: string;
  description: string;
  location: string;
  timeline: string;
  categoryId: string;
  maxDiggers: number;
  budgetMin: string;
  budgetMax: string;
  deadline: string;
  contactPreferences: string;
  contactPhone: string;
}
