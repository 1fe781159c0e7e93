/**
 * The issues dialog of /my-gigs, reading (spec sections 2, 4, 8; design.md sections 1, 5, 6):
 * the owner of a gig reads the issues diggers reported on its leads. Anyone but the gig's
 * owner gets 404 and nothing else. Deciding on an issue is in resolve-issue.ts. Each issue comes
 * with what its purchase's thread shows (issue 48), read in the same query; a fake-request report
 * is not shown: it accuses the client, and the operators decide it. A Wrong Phone Number report on a
 * number verified at purchase says when the client verified it (issue 49).
 */
import { and, desc, eq, ne } from "drizzle-orm";
import { ISSUE_MESSAGES, respondByText, withOperatorsText, type GigIssue } from "#core/lead-issues.ts";
import { isUuid } from "#core/ids.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { signedIn } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import { evidenceColumns } from "./thread-evidence.ts";
import { withEvidenceTexts } from "./evidence-texts.ts";
import { phoneVerifiedText } from "./phone-verified-text.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";

/** Who may read and decide on the issues of a gig: its owner, who must be signed in. */
export const GIG_ISSUES_ACCESS = signedIn({
  signedOut: { message: "Please sign in to view your gigs", redirectTo: "/auth?redirect=/my-gigs" },
});

/** At most this many issues in the dialog: one per purchase, so one per digger who bought. */
const ISSUES_LIMIT = 500;

/** The issues on a gig of `clientId`, newest first; null when the gig is not theirs. */
async function listGigIssues(db: Database, clientId: string, gigId: string, time: ReaderTime, verificationOn: boolean): Promise<GigIssue[] | null> {
  if (!isUuid(gigId)) return null;
  const [gig] = await db
    .select({ id: gigs.id })
    .from(gigs)
    .where(and(eq(gigs.id, gigId), eq(gigs.clientId, clientId)));
  if (!gig) return null;
  const rows = await db
    .select({
      id: leadIssues.id,
      issueType: leadIssues.issueType,
      description: leadIssues.description,
      refundPercentage: leadIssues.refundPercentage,
      status: leadIssues.status,
      createdAt: leadIssues.createdAt,
      respondBy: leadIssues.respondBy,
      decidedBy: leadIssues.decidedBy,
      operatorRespondBy: leadIssues.operatorRespondBy,
      amountPaidCents: leadPurchases.amountPaidCents,
      diggerBusinessName: diggerProfiles.businessName,
      diggerHandle: diggerProfiles.handle,
      phoneVerifiedAt: leadPurchases.phoneVerifiedAt,
      ...evidenceColumns,
    })
    .from(leadIssues)
    .innerJoin(leadPurchases, eq(leadPurchases.id, leadIssues.leadPurchaseId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadIssues.diggerId))
    .leftJoin(threads, eq(threads.purchaseId, leadPurchases.id))
    .where(and(eq(leadPurchases.gigId, gig.id), ne(leadIssues.issueType, "fake_request")))
    .orderBy(desc(leadIssues.createdAt), desc(leadIssues.id))
    .limit(ISSUES_LIMIT);
  return rows.map(({ phoneVerifiedAt, ...row }) => ({
    ...withEvidenceTexts(row, time, "client"),
    phoneVerifiedText: phoneVerifiedText(verificationOn, row.issueType, phoneVerifiedAt, time, "client"),
    createdAt: row.createdAt.toISOString(),
    respondBy: row.respondBy.toISOString(),
    operatorRespondBy: row.operatorRespondBy?.toISOString() ?? null,
    reportedText: `Reported ${time.ago(row.createdAt)}`,
    respondByText: respondByText(time.deadline(row.respondBy)),
    withOperatorsText: row.operatorRespondBy ? withOperatorsText(time.deadline(row.operatorRespondBy)) : null,
  }));
}

/** The dialog's data: the issues on gig `gigId` of `clientId`; 404 'Failed to load issues' when the gig is not theirs. */
async function gigIssues(db: Database, clientId: string, gigId: string, time: ReaderTime, verificationOn: boolean): Promise<{ issues: GigIssue[] }> {
  const issues = await listGigIssues(db, clientId, gigId, time, verificationOn);
  // Not theirs, or no such gig: 404 and nothing about it.
  if (!issues) throw new AppError("not_found", ISSUE_MESSAGES.loadIssuesFailed);
  return { issues };
}

/** The issues dialog of /my-gigs: the issues on one of my gigs. */
export const gigIssuesDialog = defineOperation({
  access: GIG_ISSUES_ACCESS,
  run: ({ services: { db, config }, user, params }) =>
    gigIssues(db, user.id, params.gigId ?? "", readerTime(user.timeZone, config), phoneVerificationOn(config)),
});
