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
import { formatDateTime } from "#core/dates.ts";
import {
  ISSUE_MESSAGES,
  ISSUE_REMINDER_HOURS_BEFORE,
  issueReportSchema,
  issueTypeLabel,
  REFUND_PERCENTAGES,
  reportTooLateMessage,
} from "#core/lead-issues.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import { issueReportedEmail } from "../mail/templates/lead-emails.ts";
import type { AppServices } from "../services.ts";
import { clientUser, withPurchaseParties } from "./purchase-parties.ts";

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

/** Records the report of digger `diggerId` (the form of /my-leads) and e-mails the client. */
export async function reportIssue(services: Pick<AppServices, "db" | "notify" | "config" | "jobs">, diggerId: string, form: FormData): Promise<void> {
  const { db, notify, config, jobs } = services;
  const { issueType, description } = parsedInput(issueReportSchema, {
    issueType: form.get("issueType"),
    description: form.get("description"),
  });
  // Another digger's purchase, one never paid for, or none at all: nothing to report on.
  const purchaseId = form.get("purchaseId");
  if (!isUuid(purchaseId)) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  const lead = await reportedLead(db, diggerId, purchaseId, config.leadIssueReportDays);
  if (!lead) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  if (lead.windowClosed) {
    const closedAt = new Date(lead.purchasedAt!.getTime() + config.leadIssueReportDays * 24 * 3600 * 1000);
    throw new AppError("conflict", reportTooLateMessage(closedAt, config.leadIssueReportDays));
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
      // The reminder, a day before the deadline; with a window of a day or less the report's
      // own e-mail is the reminder.
      if (responseHours > ISSUE_REMINDER_HOURS_BEFORE) {
        const startAfterSeconds = (responseHours - ISSUE_REMINDER_HOURS_BEFORE) * 3600;
        await jobs.send("issues.remind", { issueId: issue!.id }, { tx, startAfterSeconds });
      }
      const subject = `A digger reported an issue with your gig "${lead.gigTitle}"`;
      const respondBy = `Respond by ${formatDateTime(issue!.respondBy)}`;
      await notify(tx, {
        userId: lead.clientId,
        kind: "issue.reported",
        subjectId: issue!.id,
        text: `${lead.handle} reported an issue with your gig "${lead.gigTitle}". ${respondBy}.`,
        link: "/my-gigs",
        email: issueReportedEmail({
          publicUrl: config.publicUrl,
          subject,
          businessName: lead.businessName,
          handle: lead.handle,
          gigTitle: lead.gigTitle,
          issueType: issueTypeLabel(issueType),
          refundPercentage,
          description,
          respondBy,
        }),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, "lead_issues_purchase_key")) throw new AppError("conflict", ISSUE_MESSAGES.alreadyReported);
    throw error;
  }
}
