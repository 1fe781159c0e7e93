/**
 * The reply guarantee (issue 48, docs/decisions/0074-the-reply-guarantee.md): what a thread shows
 * decides a refund. Its constants, the texts every page, e-mail and notice use, the thread's
 * evidence in words, and the client's record before buying. Times arrive as the server's text in
 * the reader's zone (server/reader-time.ts); nothing here reads a clock.
 */
import { keptVisitsLine } from "./kept-visits.ts";
import { CLIENT_REVIEW_QUESTIONS, clientRatingLine, yesShareLine, type ClientReviewQuestion } from "./two-way-reviews.ts";

/** A purchase is covered when its digger's first message or quote comes within this many hours of it. */
export const GUARANTEE_WRITE_HOURS = 24;
/** ... and refunded when the client did nothing in its thread this many hours after that first answer. */
export const GUARANTEE_WAIT_HOURS = 48;
/** Refunds by the guarantee (and issues approved at once by its rule) per digger in GUARANTEE_WINDOW_DAYS; past that the operators decide. */
export const GUARANTEE_REFUNDS_PER_DIGGER = 3;
export const GUARANTEE_WINDOW_DAYS = 30;

/**
 * How a purchase's guarantee ended (lead_purchases.guarantee_outcome): refunded; answered (the
 * client opened, replied, decided a quote or hired before it was due); escalated (past the
 * digger's bound: the operators decide); declined (an operator refused it); skipped (an issue
 * pending or approved on it, or nothing left to refund).
 */
export type GuaranteeOutcome = "refunded" | "answered" | "escalated" | "declined" | "skipped";

export const GUARANTEE_TEXTS = {
  /** The lead card of a purchase refunded by the guarantee. */
  refunded: `Refunded: the client did not open your thread within ${GUARANTEE_WAIT_HOURS} hours`,
  /** The lead card of a purchase whose digger did not write within 24 hours. */
  notCovered: `Not covered: no message within ${GUARANTEE_WRITE_HOURS} hours of buying`,
  /** The lead card while the operators decide (past the digger's bound). */
  escalated: "Reply guarantee: Digs & Gigs is reviewing this refund",
  /** The lead card once an operator refused it. */
  declined: "Reply guarantee: refund declined by Digs & Gigs",
  /** The gig page, to a digger who has not bought it, while its client has opened none of its threads. */
  paused: "Paused: the client has not replied to the diggers yet",
  /** My Leads' spending card. */
  spendingLabel: "Refunded by the reply guarantee",
  /** The operators' queue of guarantees past a digger's bound. */
  queueTitle: "Reply guarantee refunds past the digger's bound",
  approved: "Reply guarantee refund approved",
  declinedToast: "Reply guarantee refund declined",
  notFound: "Reply guarantee refund not found",
  alreadyDecided: "This reply guarantee refund has already been decided",
} as const;

/** The rule in one paragraph: /how-it-works and the terms. */
export const GUARANTEE_RULE =
  `Write to the client within ${GUARANTEE_WRITE_HOURS} hours of buying a lead, by message or quote. If ${GUARANTEE_WAIT_HOURS} hours later the client has not opened your thread, replied, decided a quote or hired anyone, we refund the lead in full, automatically: no report, no waiting for the client. Up to ${GUARANTEE_REFUNDS_PER_DIGGER} such refunds in ${GUARANTEE_WINDOW_DAYS} days; past that, Digs & Gigs reviews each one.`;

/** 'Reply guarantee: refunded on {date} if the client has not opened your thread'; `date` in the digger's zone. */
export const coveredText = (date: string) => `Reply guarantee: refunded on ${date} if the client has not opened your thread`;

/** The digger's bell and e-mail subject once the guarantee refunded a lead. */
export const guaranteeRefundedNotice = (gigTitle: string) =>
  `We refunded your lead "${gigTitle}": the client did not open your thread within ${GUARANTEE_WAIT_HOURS} hours`;

/** The client's bell and e-mail subject once their gig is paused. */
export const awaitingReplyNotice = (gigTitle: string) => `Diggers are waiting for your reply about "${gigTitle}"`;

/** What a thread shows for one purchase, beside every refund decision. */
export interface ThreadEvidence {
  purchasedAt: Date;
  /** The digger's first message or quote; null: none yet. */
  diggerFirstAt: Date | null;
  /** The client first opened the thread with something of the digger's in it; null: never. */
  clientOpenedAt: Date | null;
  diggerMessages: number;
  clientMessages: number;
}

/** 'Client opened your thread {date}' or 'Client has not opened your thread'; `date` in the reader's zone. */
export const openedText = (openedDate: string | null) => (openedDate === null ? "Client has not opened your thread" : `Client opened your thread ${openedDate}`);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** 'Messages: 3 from the digger, 1 from the client' (a quote counts as the digger's). */
export const messageCountsText = (e: Pick<ThreadEvidence, "diggerMessages" | "clientMessages">) =>
  `Messages: ${e.diggerMessages} from the digger, ${e.clientMessages} from the client`;

/** A duration in words, rounded down: '45 minutes', '3 hours', '2 days'. */
function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return plural(minutes, "minute", "minutes");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, "hour", "hours");
  return plural(Math.floor(hours / 24), "day", "days");
}

/** 'First message 2 hours after buying' or 'No message yet'. */
export const firstMessageText = (e: Pick<ThreadEvidence, "purchasedAt" | "diggerFirstAt">) =>
  e.diggerFirstAt === null ? "No message from the digger yet" : `First message ${durationText(e.diggerFirstAt.getTime() - e.purchasedAt.getTime())} after buying`;

/**
 * The client's record as a digger sees it before buying (the gig page, a line on Browse Gigs):
 * its reply lines over the client's leads of the last 12 months once there are
 * RECORD_MIN_LEADS of them, its hire line once somebody bought one of their gigs, and 'New
 * client' when there is no history of any kind. The site-visits and two-way-reviews issues add
 * their lines here: 'Kept {k} of {n} visits', then the diggers' reviews of the client ('4.8 from
 * 3 diggers' and each question's share of yes).
 */
export const RECORD_MIN_LEADS = 3;
export const RECORD_MONTHS = 12;
export const NEW_CLIENT = "New client";
/** The heading of the record's block on a gig's page (the block the later issues add their lines to). */
export const RECORD_TITLE = "About this client";

/** Replies by the response-time bands (migration 0052's client_reply_months, summed over 12 months). */
export interface ClientRecordFigures {
  /** Leads whose digger wrote, last 12 months. */
  leads: number;
  /** ... of which the client replied to. */
  replied: number;
  withinHour: number;
  withinFewHours: number;
  withinDay: number;
  /** All time: leads whose digger wrote, gigs somebody bought, and of those the hired ones. */
  leadsAllTime: number;
  gigsBought: number;
  gigsHired: number;
  /** All time (issue 50, migration 0055's visit_records as the client): visits kept, of those counted. */
  visitsKept: number;
  visitsCounted: number;
  /**
   * All time (issue 51, client_records' review columns, kept by migration 0056's triggers): the
   * client's published, shown, not withdrawn reviews from diggers, their average, and each
   * question's yes and no answers (an unanswered question counts in neither).
   */
  reviewCount: number;
  reviewAverage: number;
  describedYes: number;
  describedNo: number;
  reachableYes: number;
  reachableNo: number;
  paidYes: number;
  paidNo: number;
}

/**
 * The median reply's band: 'Usually replies within an hour | a few hours | a day', or null when
 * the median reply took longer than a day. With an even count the slower middle reply decides.
 */
export function usualReplyText(f: Pick<ClientRecordFigures, "replied" | "withinHour" | "withinFewHours" | "withinDay">): string | null {
  if (f.replied === 0) return null;
  const middle = Math.floor(f.replied / 2) + 1;
  if (f.withinHour >= middle) return "Usually replies within an hour";
  if (f.withinHour + f.withinFewHours >= middle) return "Usually replies within a few hours";
  if (f.withinHour + f.withinFewHours + f.withinDay >= middle) return "Usually replies within a day";
  return null;
}

/** The record's lines, in order ('Kept {k} of {n} visits' last, from 3 counted visits); ['New client'] without any history. */
export function clientRecordLines(f: ClientRecordFigures): string[] {
  if (f.leadsAllTime === 0 && f.gigsBought === 0) return [NEW_CLIENT];
  const lines: string[] = [];
  if (f.leads >= RECORD_MIN_LEADS) {
    lines.push(`Replied to ${f.replied} of ${f.leads} diggers`);
    const usual = usualReplyText(f);
    if (usual) lines.push(usual);
  }
  if (f.gigsBought > 0) lines.push(`Hired on ${f.gigsHired} of ${f.gigsBought} ${f.gigsBought === 1 ? "gig" : "gigs"}`);
  const kept = keptVisitsLine({ kept: f.visitsKept, counted: f.visitsCounted });
  if (kept) lines.push(kept);
  lines.push(...clientReviewLines(f));
  return lines;
}

/** Each question's yes and no answers in the figures. */
const ANSWER_FIGURES: Record<ClientReviewQuestion, (f: ClientRecordFigures) => [yes: number, no: number]> = {
  asDescribed: (f) => [f.describedYes, f.describedNo],
  easyToReach: (f) => [f.reachableYes, f.reachableNo],
  paidAsAgreed: (f) => [f.paidYes, f.paidNo],
};

/**
 * The diggers' reviews of the client in lines (issue 51): '4.8 from 3 diggers', then each
 * question somebody answered, 'Paid as agreed: 100% yes (3 answers)'; none before a published review.
 */
export function clientReviewLines(f: ClientRecordFigures): string[] {
  const rating = clientRatingLine(f.reviewAverage, f.reviewCount);
  if (rating === null) return [];
  return [rating, ...CLIENT_REVIEW_QUESTIONS.flatMap(({ name, label }) => yesShareLine(label, ...ANSWER_FIGURES[name](f)) ?? [])];
}

/**
 * The client's own side of the evidence (their issues dialog): 'Client opened your thread' reads
 * oddly to the client, who is told of themself; `openedDate` in the client's zone.
 */
export const clientOpenedText = (openedDate: string | null) =>
  openedDate === null ? "You have not opened this digger's thread" : `You opened this digger's thread ${openedDate}`;

/** A purchase's evidence in words, as the server writes it for one reader (server/leads/evidence-texts.ts). */
export interface EvidenceTexts {
  /** 'Client opened your thread Nov 28, 2026, 7:47 PM CST' (or the client's own words). */
  opened: string;
  /** 'Messages: 3 from the digger, 1 from the client'. */
  messages: string;
  /** 'First message 2 hours after buying'. */
  firstMessage: string;
}

/** The digger's bell and e-mail subject once an operator declined a refund past their bound. */
export const guaranteeDeclinedNotice = (gigTitle: string) => `Your reply guarantee refund for "${gigTitle}" was declined by Digs & Gigs`;

/** Each buyer's bell and e-mail subject once a gig is taken down after a fake-request report. */
export const gigRemovedRefundNotice = (gigTitle: string) => `The gig "${gigTitle}" was taken down: your lead is refunded`;

/**
 * The reason an approved fake-request report gives in the take-down's notice to the client (the
 * neutral notice of a gig hidden by an operator): neither the reporting digger nor the report.
 */
export const FAKE_REQUEST_TAKEDOWN_REASON = "Digs & Gigs reviewed this request and took it down.";

/** The operators' answers on a fake-request report (/ops/payments). */
export const FAKE_REQUEST_TEXTS = {
  approved: "Fake request approved: the gig is taken down and every buyer is refunded.",
  rejected: "Fake request rejected. The digger is told.",
  /** The section's line about the client's other gigs. */
  otherGigsTitle: "The client's other gigs",
  noOtherGigs: "No other gig by this client.",
} as const;
