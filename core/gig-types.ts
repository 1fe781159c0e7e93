/** The shapes of gigs as lists show them, shared by the server's queries and the pages. */

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
  purchaseCount: number;
  /** The cap on buyers, and the spots taken: its completed purchases (checkouts do not fill a lead, decision 0030). */
  maxDiggers: number;
  spotsTaken: number;
  leadPriceCents: number;
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
