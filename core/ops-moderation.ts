/**
 * The operator console's Gigs and Reviews sections (issue 22): Hide / Restore a gig, report a
 * review and Hide / Keep it; their forms and messages.
 */
import { z } from "zod";
import { operatorReason } from "./ops-users.ts";
import { REPORT_REASON_MAX, REPORT_REASON_MIN, REVIEW_REPORT_MESSAGES } from "./review-report-texts.ts";

export { REPORT_REASON_MAX, REPORT_REASON_MIN, REVIEW_REPORT_MESSAGES } from "./review-report-texts.ts";

export const OPS_GIG_MESSAGES = {
  hidden: "Gig hidden. Its owner is told why.",
  restored: "Gig restored.",
  alreadyHidden: "This gig is already hidden.",
  notHidden: "This gig is not hidden.",
} as const;

export const gigModerationSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("hide"), gigId: z.uuid({ error: "Gig not found" }), reason: operatorReason() }),
  z.object({ intent: z.literal("restore"), gigId: z.uuid({ error: "Gig not found" }) }),
]);

export const reviewReportSchema = z.object({
  reviewId: z.uuid({ error: REVIEW_REPORT_MESSAGES.notFound }),
  reason: z
    .string({ error: REVIEW_REPORT_MESSAGES.reasonRequired })
    .trim()
    .min(REPORT_REASON_MIN, REVIEW_REPORT_MESSAGES.reasonRequired)
    .refine((reason) => [...reason].length <= REPORT_REASON_MAX, REVIEW_REPORT_MESSAGES.reasonTooLong),
});

export const OPS_REVIEW_MESSAGES = {
  hidden: "Review hidden. It no longer counts in the digger's rating.",
  /** A digger's review of a client (issue 51). */
  hiddenClient: "Review hidden. It no longer counts in the client's record.",
  kept: "Review kept. Its reports are closed.",
  noOpenReports: "This review has no open reports.",
} as const;

/** Which review table a report names: a client's review of a digger, or (issue 51) a digger's review of a client. */
export const REVIEW_SIDES = ["digger", "client"] as const;
export type ReviewSide = (typeof REVIEW_SIDES)[number];

export const reviewModerationSchema = z.object({
  intent: z.enum(["hide", "keep"], { error: "Unknown action" }),
  reviewId: z.uuid({ error: REVIEW_REPORT_MESSAGES.notFound }),
  /** The reviewed side; a form without it (before issue 51) is a review of a digger. */
  side: z.enum(REVIEW_SIDES, { error: REVIEW_REPORT_MESSAGES.notFound }).default("digger"),
});

/** A gig as the console's Gigs list shows it. */
export interface OpsGig {
  id: string;
  title: string;
  location: string;
  status: "open" | "closed";
  published: boolean;
  createdAt: string;
  ownerId: string;
  ownerEmail: string;
  ownerSuspended: boolean;
  hiddenAt: string | null;
  hiddenReason: string | null;
  purchaseCount: number;
}

/** A review with open reports, as the Reviews queue shows it. */
export interface ReportedReview {
  id: string;
  /** 'digger': a client's review of the digger; 'client' (issue 51): the digger's review of the client. */
  side: ReviewSide;
  rating: number;
  body: string;
  createdAt: string;
  /** The digger: reviewed, or the reviewer of a client. */
  diggerId: string;
  diggerHandle: string;
  diggerUserId: string;
  /** The reviewed client (side 'client' only): operators see every account. */
  client: { id: string; name: string } | null;
  firstReportedAt: string;
  reasons: string[];
}
