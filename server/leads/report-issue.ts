/**
 * A digger reports an issue on one of their completed purchases (spec sections 4, 5, 8;
 * design.md section 6), from /my-leads. The refund percentage comes from the issue type, never
 * from the browser; the unique index lead_issues_purchase_key keeps it to one issue per
 * purchase. A report is taken within LEAD_ISSUE_REPORT_DAYS of the purchase only. The issue
 * gets its deadline (`respond_by`, LEAD_ISSUE_RESPONSE_HOURS from now) and, in the same
 * transaction, the job that reminds the client 24 hours before it; the client is e-mailed to
 * approve or reject it by then (the bell and an e-mail, written with the report;
 * docs/decisions/0020-refund-deadlines.md).
 */
import { and, eq, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { ISSUE_MESSAGES, issueReportFormSchema, REFUND_PERCENTAGES, reportTooLateMessage, type IssueReport } from "#core/lead-issues.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { AppServices } from "../context.ts";
import { clientUser, withPurchaseParties } from "./purchase-parties.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import { defineOperation } from "../operation.ts";
import { MY_LEADS_ACCESS } from "./access.ts";

/**
 * The completed purchase `purchaseId` of digger `diggerId`, with what the client's e-mail
 * needs and whether its report window (`reportDays` after the purchase) has closed.
 */
async function reportedLead(db: AppServices["db"], diggerId: string, purchaseId: string, reportDays: number) {
  const closesAt = sql`${leadPurchases.purchasedAt} + make_interval(days => ${reportDays}::int)`;
  const [lead] = await withPurchaseParties(
    db
      .select({
        purchasedAt: leadPurchases.purchasedAt,
        windowClosed: sql<boolean>`${closesAt} <= now()`,
        gigTitle: gigs.title,
        clientId: clientUser.id,
        clientEmail: clientUser.email,
        businessName: diggerProfiles.businessName,
        handle: diggerProfiles.handle,
      })
      .from(leadPurchases)
      .$dynamic(),
  ).where(and(eq(leadPurchases.id, purchaseId), eq(leadPurchases.diggerId, diggerId), eq(leadPurchases.status, "completed")));
  return lead;
}

/**
 * Records the report `{ issueType, description }` (the form of /my-leads, parsed by
 * `issueReportSchema`) of digger `diggerId` on purchase `purchaseId` (the form's, unchecked)
 * and e-mails the client.
 */
async function reportIssue(
  services: Pick<AppServices, "db" | "emit" | "config">,
  diggerId: string,
  purchaseId: unknown,
  { issueType, description }: IssueReport,
  time: ReaderTime,
): Promise<void> {
  const { db, emit, config } = services;
  // Another digger's purchase, one never paid for, or none at all: nothing to report on.
  if (!isUuid(purchaseId)) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  const lead = await reportedLead(db, diggerId, purchaseId, config.leadIssueReportDays);
  if (!lead) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  if (lead.windowClosed) {
    const closedAt = new Date(lead.purchasedAt!.getTime() + config.leadIssueReportDays * 24 * 3600 * 1000);
    throw new AppError("conflict", reportTooLateMessage(time.date(closedAt), config.leadIssueReportDays));
  }

  const refundPercentage = REFUND_PERCENTAGES[issueType];
  const responseHours = config.leadIssueResponseHours;
  try {
    await db.transaction(async (tx) => {
      const [issue] = await tx
        .insert(leadIssues)
        .values({
          leadPurchaseId: purchaseId,
          diggerId,
          issueType,
          description,
          refundPercentage,
          respondBy: sql`now() + make_interval(hours => ${responseHours}::int)`,
        })
        .returning({ id: leadIssues.id, respondBy: leadIssues.respondBy });
      // The client's notice, and the reminder's job (issue-deadlines.ts's issueReminderJob).
      await emit(tx, {
        kind: "issue.reported",
        issueId: issue!.id,
        clientUserId: lead.clientId,
        handle: lead.handle,
        businessName: lead.businessName,
        gigTitle: lead.gigTitle,
        issueType,
        refundPercentage,
        description,
        respondBy: issue!.respondBy,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, "lead_issues_purchase_key")) throw new AppError("conflict", ISSUE_MESSAGES.alreadyReported);
    throw error;
  }
}

/** My Leads' Report Issue form: says it was reported, in the spec's words. */
export const reportLeadIssue = defineOperation({
  access: MY_LEADS_ACCESS,
  input: issueReportFormSchema,
  async run({ services, user, diggerId, input: { purchaseId, ...report } }) {
    await reportIssue(services, diggerId, purchaseId, report, readerTime(user.timeZone, services.config));
    return { success: ISSUE_MESSAGES.reported };
  },
});
