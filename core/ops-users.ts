/**
 * The operator console's Users section (issue 22): the Suspend and Reinstate forms, their
 * messages, and a user's account as the console shows it.
 */
import { z } from "zod";
import type { IssueType, RefundRate } from "./lead-issues.ts";
import type { EvidenceTexts } from "./reply-guarantee.ts";

/** The audit table's limit on a reason (operator_actions_reason_length). */
export const OPS_REASON_MAX = 1000;

export const OPS_USER_MESSAGES = {
  reasonRequired: "Please give a reason",
  reasonTooLong: `The reason can be at most ${OPS_REASON_MAX} characters`,
  notSelf: "You cannot suspend your own account.",
  notOperator: "Operators cannot be suspended. Revoke the operator role first (npm run operator -- revoke EMAIL).",
  deleted: "This account has been deleted: it cannot be suspended or reinstated.",
  alreadySuspended: "This account is already suspended.",
  notSuspended: "This account is not suspended.",
  suspended: "Account suspended. The user is signed out everywhere.",
  reinstated: "Account reinstated.",
} as const;

/**
 * Suspend and Reinstate both need a reason: the audit trail says why every change of an
 * account's standing was made, both ways.
 */
export const standingChangeSchema = z.object({
  intent: z.enum(["suspend", "reinstate"], { error: "Unknown action" }),
  reason: operatorReason(),
});

/** An operator's reason for an action (every console form that takes one): required, at most OPS_REASON_MAX. */
export function operatorReason() {
  return z
    .string({ error: OPS_USER_MESSAGES.reasonRequired })
    .trim()
    .min(1, OPS_USER_MESSAGES.reasonRequired)
    .refine((reason) => [...reason].length <= OPS_REASON_MAX, OPS_USER_MESSAGES.reasonTooLong);
}

/** The longest search text of /ops/users; longer input is cut, not refused. */
export const USER_SEARCH_MAX = 100;

/** One row of the /ops/users list. */
export interface UserListItem {
  id: string;
  name: string;
  email: string;
  userType: "consumer" | "digger";
  handle: string | null;
  createdAt: string;
  operator: boolean;
  suspended: boolean;
  deleted: boolean;
}

/** A user's account as their console page shows it (dates as ISO text). */
export interface OpsUserAccount {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  userType: "consumer" | "digger";
  twoFactorEnabled: boolean;
  createdAt: string;
  operatorSince: string | null;
  suspendedAt: string | null;
  /** The operator's reason: shown in the console only, never to the user or anyone else. */
  suspendedReason: string | null;
  deletedAt: string | null;
  purgedAt: string | null;
  diggerId: string | null;
  handle: string | null;
  /** A digger's refund rate (decision 0031); null for a client. */
  refundRate: RefundRate | null;
  /** Its dates as the server wrote them in the operator's zone (issue 47): "Nov 28, 2026". */
  joinedText: string;
  operatorSinceText: string | null;
  /** "Active", "Suspended Nov 28, 2026, 7:47 PM CST", "Deleted …". */
  standingText: string;
}

/** The newest rows of a list, and whether older ones exist. */
export interface Capped<T> {
  items: T[];
  more: boolean;
}

export interface OpsReviewRow {
  id: string;
  gigId: string;
  gigTitle: string;
  rating: number;
  body: string;
  /** The digger's handle (reviews given) or the client's name (reviews received). */
  other: string;
  createdAt: string;
  createdAtText: string;
  /** A digger's review of a client (issue 51) not shown: 'not yet published', 'hidden by an operator'; null or absent: shown. */
  note?: string | null;
}

/** What the user did on the site, each list newest first. */
export interface OpsUserActivity {
  gigs: Capped<{ id: string; title: string; status: "open" | "closed"; published: boolean; hidden: boolean; purchaseCount: number; maxDiggers: number; createdAt: string; createdAtText: string }>;
  purchases: Capped<{ id: string; gigId: string; gigTitle: string; amountPaidCents: number; status: "pending" | "completed" | "cancelled"; createdAt: string; createdAtText: string }>;
  issues: Capped<{
    id: string;
    gigId: string;
    gigTitle: string;
    issueType: IssueType;
    status: "pending" | "approved" | "rejected";
    reportedByThem: boolean;
    createdAt: string;
    createdAtText: string;
    /** What the purchase's thread shows (issue 48); null without a thread. */
    evidence: EvidenceTexts | null;
  }>;
  reviewsGiven: Capped<OpsReviewRow>;
  reviewsReceived: Capped<OpsReviewRow>;
  /** Issue 51: the digger's reviews of their clients, and the client's reviews from diggers; operators see every one. */
  clientReviewsGiven: Capped<OpsReviewRow>;
  clientReviewsReceived: Capped<OpsReviewRow>;
}
