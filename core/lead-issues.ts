/**
 * Lead issues (spec sections 3, 4, 5, 9; design.md section 1): the three types a digger may
 * report with their labels and refund percentages, the status labels and badge styles, the
 * refund amount rule, and the forms' schemas (reporting an issue, deciding on one). The
 * refund percentage is always taken from this table by the server, never from the browser.
 */
import { z } from "zod";
import { formatPrice } from "./money.ts";
import type { EvidenceTexts } from "./reply-guarantee.ts";

/**
 * 'fake_request' (issue 48) is decided by an operator, never by the client it accuses;
 * 'wrong_phone' (issue 49) is approved at once when the number was not verified at purchase.
 */
export const ISSUE_TYPES = ["mistake", "changed_mind", "already_filled", "fake_request", "wrong_phone"] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

export const ISSUE_TYPE_LABELS: Record<IssueType, string> = {
  mistake: "Posted by Mistake",
  changed_mind: "Changed Mind",
  already_filled: "Already Found Digger",
  fake_request: "Fake or Spam Request",
  wrong_phone: "Wrong Phone Number",
};

/** Spec section 9: mistake 100, changed_mind 100, already_filled 50; issue 48: fake_request 100; issue 49: wrong_phone 100. */
export const REFUND_PERCENTAGES: Record<IssueType, number> = {
  mistake: 100,
  changed_mind: 100,
  already_filled: 50,
  fake_request: 100,
  wrong_phone: 100,
};

const ISSUE_STATUSES = ["pending", "approved", "rejected"] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export const ISSUE_STATUS_LABELS: Record<IssueStatus, string> = {
  pending: "Pending Review",
  approved: "Approved",
  rejected: "Rejected",
};

/** Spec section 4: pending secondary, approved default, rejected outline. */
const ISSUE_STATUS_BADGES: Record<IssueStatus, "secondary" | "default" | "outline"> = {
  pending: "secondary",
  approved: "default",
  rejected: "outline",
};

export const ISSUE_DESCRIPTION_MAX = 2000;

export const ISSUE_MESSAGES = {
  fillAll: "Please fill in all fields",
  tooLong: `Description must be less than ${ISSUE_DESCRIPTION_MAX} characters`,
  reported: "Issue reported successfully. The client will review your request.",
  /** A fake-request report: the client it accuses is neither asked nor told (issue 48). */
  fakeReported: "Reported: Digs & Gigs reviews it. The client is not told of your report.",
  /** A pending fake-request report on the digger's lead card, instead of the client's deadline. */
  fakePending: "Digs & Gigs is reviewing your report of a fake or spam request",
  /** An issue approved at once by the reply guarantee's rule (issue 48). */
  approvedByGuarantee: "Refund approved: the client had not opened your thread 48 hours after your first message.",
  /** A Wrong Phone Number report on a number its client had not verified when the lead was bought (issue 49). */
  approvedUnverifiedPhone: "Refund approved: the client had not verified this phone number when you bought the lead.",
  /** A Wrong Phone Number report on a lead whose gig gives no phone number (issue 49). */
  noPhone: "This lead has no phone number: choose another issue type",
  alreadyReported: "You have already reported an issue for this lead",
  reportFailed: "Failed to report issue",
  loadLeadsFailed: "Failed to load leads",
  loadIssuesFailed: "Failed to load issues",
  updateFailed: "Failed to update issue",
  alreadyResolved: "This issue has already been resolved",
  deadlinePassed: "The response deadline has passed: this issue was approved automatically",
  withOperators: "The response deadline has passed: Digs & Gigs decides this issue now",
  operatorDeadlinePassed: "The operators' deadline has passed: this issue was approved automatically",
  issueNotFound: "Issue not found",
  approved: "Issue approved",
  rejected: "Issue rejected",
} as const;

/** The issue type a digger reports a number that does not reach the client with (issue 49). */
export const WRONG_PHONE = "wrong_phone";

/** The report form's hint: who decides a fake-request report (issue 48). */
export const FAKE_REQUEST_HINT = "A Fake or Spam Request goes to Digs & Gigs, not to the client.";

/** LEAD_ISSUE_RESPONSE_HOURS and LEAD_ISSUE_REPORT_DAYS when they are not set (server/config.ts). */
export const ISSUE_DEADLINE_DEFAULTS = { responseHours: 72, reportDays: 14 } as const;

/** The client is reminded this long before the deadline (when the window is longer than that). */
export const ISSUE_REMINDER_HOURS_BEFORE = 24;

/**
 * Who decided an issue: its client, the automatic approval after the deadline, an operator
 * (docs/decisions/0031), or the reply guarantee's rule (approved at once: the client had not opened
 * the thread 48 hours after the digger's first answer, issue 48).
 */
export type IssueDecider = "client" | "automatic" | "operator" | "guarantee";

/**
 * The automatic approval's bound (docs/decisions/0031-automatic-approval-bound.md): a digger's
 * issues are approved automatically at most this many times in AUTO_APPROVAL_WINDOW_DAYS; past
 * that an overdue issue waits for an operator (LEAD_ISSUE_RESPONSE_HOURS more).
 */
export const AUTO_APPROVALS_PER_DIGGER = 2;
export const AUTO_APPROVAL_WINDOW_DAYS = 30;
/** A digger's refund rate, beside their issues in the console, counts this many days of purchases. */
export const REFUND_RATE_DAYS = 90;

/** A digger's completed purchases of the last REFUND_RATE_DAYS, and how many an approved issue refunded. */
export interface RefundRate {
  purchases: number;
  refunded: number;
}

export const REFUND_RATE_LABEL = `Refund rate (${REFUND_RATE_DAYS} days)`;

/** '67% (2 of 3 purchases)'; 'no purchases' without any. */
export function refundRateValue({ purchases, refunded }: RefundRate): string {
  if (purchases === 0) return "no purchases";
  return `${Math.round((100 * refunded) / purchases)}% (${refunded} of ${purchases} ${purchases === 1 ? "purchase" : "purchases"})`;
}

/** 'Refund rate (90 days): 67% (2 of 3 purchases)'. */
export const refundRateText = (rate: RefundRate) => `${REFUND_RATE_LABEL}: ${refundRateValue(rate)}`;

const APPROVED_AUTOMATICALLY = "Approved automatically";

/** A pending issue past its deadline that the operators decide (decision 0031), as its client reads it. */
export const withOperatorsText = (deadline: string) => `Past its deadline: Digs & Gigs decides this issue by ${deadline}.`;

/**
 * 'The client has until {deadline} to decide': the client's deadline on a pending issue, as its
 * digger reads it (issue 47); `deadline` is the server's text in the digger's zone.
 */
export function decideByText(deadline: string): string {
  return `The client has until ${deadline} to decide`;
}

/** 'Respond by {deadline}': the client's deadline on a pending issue; `deadline` is the server's text in the client's zone. */
export function respondByText(deadline: string): string {
  return `Respond by ${deadline}`;
}

/** The disabled button that replaces Report Issue once the report window has closed; `day` is the server's text in the reader's zone. */
export function reportWindowClosedText(day: string): string {
  return `Report window closed ${day}`;
}

/** The server's answer to a report after the window (LEAD_ISSUE_REPORT_DAYS after the purchase). */
export function reportTooLateMessage(closedDay: string, days: number): string {
  return `Report window closed ${closedDay}: issues can be reported within ${days} days of the purchase.`;
}

/**
 * A lead's refund state in words for My Leads: 'Refunded $50.00' once the money is back,
 * 'Refund of $50.00 on its way' while the provider works, 'Refund declined' when the client
 * rejected the report; null while nothing was decided.
 */
export function refundStateText(issueStatus: string | null, refund: { amountCents: number; succeeded: boolean } | null): string | null {
  if (issueStatus === "rejected") return "Refund declined";
  if (!refund) return null;
  const amount = formatPrice(refund.amountCents);
  return refund.succeeded ? `Refunded ${amount}` : `Refund of ${amount} on its way`;
}

function isIssueType(value: unknown): value is IssueType {
  return typeof value === "string" && (ISSUE_TYPES as readonly string[]).includes(value);
}

/** The type's label; an unknown type is shown as it is. */
export function issueTypeLabel(type: string): string {
  return isIssueType(type) ? ISSUE_TYPE_LABELS[type] : type;
}

function isIssueStatus(value: string): value is IssueStatus {
  return (ISSUE_STATUSES as readonly string[]).includes(value);
}

/** The status's label ('Approved automatically' when no one answered in time); an unknown status is shown as it is. */
export function issueStatusLabel(status: string, decidedBy?: string | null): string {
  if (status === "approved" && decidedBy === "automatic") return APPROVED_AUTOMATICALLY;
  return isIssueStatus(status) ? ISSUE_STATUS_LABELS[status] : status;
}

export function issueStatusBadge(status: string): "secondary" | "default" | "outline" {
  return isIssueStatus(status) ? ISSUE_STATUS_BADGES[status] : "outline";
}

/**
 * The refund for an issue, in integer cents: amount_paid x refund_percentage / 100, rounded
 * to the nearest cent with Math.round (half a cent rounds up: $50.01 at 50% is $25.01).
 * The same number is shown in the issues dialog and sent to the payment provider.
 */
export function refundCents(amountPaidCents: number, refundPercentage: number): number {
  return Math.round((amountPaidCents * refundPercentage) / 100);
}

/**
 * The report form (spec sections 4 and 8): a known type and a description, else 'Please fill
 * in all fields'; then the length limit. The description is trimmed. The purchase it is about
 * is not part of the form's check: an unknown one is not found.
 */
export const issueReportSchema = z.object({
  issueType: z.enum(ISSUE_TYPES, { error: ISSUE_MESSAGES.fillAll }),
  description: z
    .string({ error: ISSUE_MESSAGES.fillAll })
    .trim()
    .min(1, ISSUE_MESSAGES.fillAll)
    .max(ISSUE_DESCRIPTION_MAX, ISSUE_MESSAGES.tooLong),
});
export type IssueReport = z.output<typeof issueReportSchema>;
/**
 * The report as the server reads it (/my-leads): its purchase, any value, checked by the
 * operation with the digger's completed purchases (a missing or malformed id: not found).
 */
export const issueReportFormSchema = issueReportSchema.extend({ purchaseId: z.unknown().optional() });

export const ISSUE_DECISIONS = ["approve", "reject"] as const;
export type IssueDecision = (typeof ISSUE_DECISIONS)[number];

/** The owner's decision on one issue (the issues dialog of /my-gigs). */
export const issueDecisionSchema = z.object({
  issueId: z.string({ error: ISSUE_MESSAGES.updateFailed }),
  decision: z.enum(ISSUE_DECISIONS, { error: ISSUE_MESSAGES.updateFailed }),
});

/**
 * Where a lead stands for its digger (issue 47), the first that holds: they were hired; the
 * money came back; an approved issue's refund is on its way; the client closed the gig as
 * filled; the client chose another digger (a quote of theirs 'not chosen', another's quote
 * accepted, or another digger hired with the gig off sale); else it is active.
 */
export const LEAD_STATES = ["active", "hired", "not_chosen", "filled", "refund_pending", "refunded"] as const;
export type LeadState = (typeof LEAD_STATES)[number];

export const LEAD_STATE_LABELS: Record<LeadState, string> = {
  active: "Active",
  hired: "Hired",
  not_chosen: "Not chosen",
  filled: "Gig filled",
  refund_pending: "Refund pending",
  refunded: "Refunded",
};

/** A lead still in play: the digger may win the job or is doing it. The others look set aside on My Leads. */
export const isLiveLead = (state: LeadState) => state === "active" || state === "hired";

/** My Leads' `?state=` filter: one of the states, or null for all of them. */
export function leadStateFilter(value: string | null): LeadState | null {
  return (LEAD_STATES as readonly string[]).includes(value ?? "") ? (value as LeadState) : null;
}

/** A lead as /my-leads shows it: only ever the signed-in digger's own completed purchases. */
export interface MyLead {
  id: string;
  /** Where it stands (computed by the database, server/leads/my-leads.ts). */
  state: LeadState;
  amountPaidCents: number;
  purchasedAt: string;
  gig: {
    id: string;
    title: string;
    description: string;
    budgetMinCents: number | null;
    budgetMaxCents: number | null;
    location: string;
    timeline: string;
    contactPreferences: string | null;
    /** The client's phone for this gig, if they gave one. */
    contactPhone: string | null;
    /** The client closed it with 'Yes, I hired someone'. */
    filled: boolean;
  };
  /** `deleted`: the client deleted their account (anonymised once purged). */
  client: { name: string; email: string; deleted: boolean };
  issue: { id: string; type: IssueType; status: string; respondBy: string; decidedBy: IssueDecider | null } | null;
  /** The refund of an approved issue: its amount and whether the provider has paid it back yet. */
  refund: { amountCents: number; succeeded: boolean } | null;
  /** When the report window closes (LEAD_ISSUE_REPORT_DAYS after the purchase), and whether it has. */
  reportClosesAt: string;
  reportClosed: boolean;
  /** The purchase's conversation with the client (issue 32); every completed purchase has one. */
  threadId: string | null;
  /** When the client had verified the gig's phone, as the purchase completed (issue 49); null when not verified then, or no longer now. */
  phoneVerifiedAtPurchase: string | null;
}

/**
 * A lead as its card on /my-leads shows it: the page's loader data carries this and the card's
 * texts, not the facts they were written from (issue 52: what the browser is sent, and the
 * server encodes, is what the page shows).
 */
export interface LeadCardLead {
  id: string;
  state: LeadState;
  amountPaidCents: number;
  threadId: string | null;
  gig: Pick<MyLead["gig"], "title" | "description" | "budgetMinCents" | "budgetMaxCents" | "location" | "timeline" | "contactPreferences" | "contactPhone">;
  client: MyLead["client"];
  issue: Pick<NonNullable<MyLead["issue"]>, "status" | "decidedBy"> | null;
  refund: MyLead["refund"];
}

/** A lead's times as its digger reads them, written by the server in their zone (issue 47). */
export interface MyLeadTimes {
  /** 'Nov 28, 2026': the purchase's day. */
  purchased: string;
  /** 'Report window closed Nov 28, 2026', once it has; null while it is open. */
  reportClosed: string | null;
  /** 'The client has until Tue, Dec 1, 7:53 PM CST to decide', while an issue is pending. */
  decideBy: string | null;
  /** 'The client verified this number on Nov 28, 2026': the report dialog's line for a Wrong Phone Number (issue 49). */
  phoneVerifiedOn: string | null;
  /** 'Visit booked: Tue, Dec 8, 9:00 – 11:00 AM CST': the thread's next visit, booked and not yet over (issue 50); null: none. */
  visitBooked: string | null;
}

/** An issue as the gig's owner sees it in the issues dialog of /my-gigs. */
export interface GigIssue {
  id: string;
  issueType: string;
  description: string;
  refundPercentage: number;
  status: string;
  createdAt: string;
  respondBy: string;
  decidedBy: IssueDecider | null;
  /** Set once the issue went to the operators past its deadline (decision 0031): their deadline. */
  operatorRespondBy: string | null;
  /** The same three as the client reads them (their zone, the server's now): 'Reported 3 hours ago', 'Respond by …', 'Past its deadline: …'. */
  reportedText: string;
  respondByText: string;
  withOperatorsText: string | null;
  amountPaidCents: number;
  /** The spec's 'From: {digger business name}', with the handle the client knows the digger by everywhere else. */
  diggerBusinessName: string;
  diggerHandle: string;
  /** What the purchase's thread shows, in the client's words and zone (issue 48); null without a thread. */
  evidence: EvidenceTexts | null;
  /** A Wrong Phone Number report on a number verified at purchase: 'The client verified this number on {date}' (issue 49). */
  phoneVerifiedText: string | null;
}
