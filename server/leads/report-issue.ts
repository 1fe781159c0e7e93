/**
 * A digger reports an issue on one of their completed purchases (spec sections 4, 5, 8;
 * design.md section 6), from /my-leads. The refund percentage comes from the issue type, never
 * from the browser; the unique index lead_issues_purchase_key keeps it to one issue per
 * purchase. The client is e-mailed to approve or reject it.
 */
import { and, eq } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { ISSUE_MESSAGES, issueReportSchema, issueTypeLabel, REFUND_PERCENTAGES } from "#core/lead-issues.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, users } from "../db/schema.ts";
import { AppError, parsedInput } from "../errors.ts";
import type { AppServices } from "../services.ts";

/** The completed purchase `purchaseId` of digger `diggerId`, with what the client's e-mail needs. */
async function reportedLead(db: AppServices["db"], diggerId: string, purchaseId: string) {
  const [lead] = await db
    .select({
      gigTitle: gigs.title,
      clientId: users.id,
      clientEmail: users.email,
      businessName: diggerProfiles.businessName,
      handle: diggerProfiles.handle,
    })
    .from(leadPurchases)
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(users, eq(users.id, gigs.consumerId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(and(eq(leadPurchases.id, purchaseId), eq(leadPurchases.diggerId, diggerId), eq(leadPurchases.status, "completed")));
  return lead;
}

/** Records the report of digger `diggerId` (the form of /my-leads) and e-mails the client. */
export async function reportIssue(services: Pick<AppServices, "db" | "mailer" | "config">, diggerId: string, form: FormData): Promise<void> {
  const { db, mailer, config } = services;
  const { issueType, description } = parsedInput(issueReportSchema, {
    issueType: form.get("issueType"),
    description: form.get("description"),
  });
  // Another digger's purchase, one never paid for, or none at all: nothing to report on.
  const purchaseId = form.get("purchaseId");
  if (!isUuid(purchaseId)) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);
  const lead = await reportedLead(db, diggerId, purchaseId);
  if (!lead) throw new AppError("not_found", ISSUE_MESSAGES.reportFailed);

  const refundPercentage = REFUND_PERCENTAGES[issueType];
  try {
    await db.insert(leadIssues).values({ leadPurchaseId: purchaseId, diggerId, issueType, description, refundPercentage });
  } catch (error) {
    if (isUniqueViolation(error, "lead_issues_purchase_key")) throw new AppError("conflict", ISSUE_MESSAGES.alreadyReported);
    throw new AppError("failed", ISSUE_MESSAGES.reportFailed, { cause: error });
  }

  await mailer.send({
    to: lead.clientEmail,
    userId: lead.clientId,
    kind: "transactional",
    subject: `A digger reported an issue with your gig "${lead.gigTitle}"`,
    text: [
      `${lead.businessName} (${lead.handle}), who bought the lead for your gig "${lead.gigTitle}", reported an issue.`,
      "",
      `Issue: ${issueTypeLabel(issueType)}`,
      `Refund requested: ${refundPercentage}% of the lead price`,
      "",
      description,
      "",
      `Approve or reject the refund under View Issues: ${config.publicUrl}/my-gigs`,
    ].join("\n"),
  });
}
