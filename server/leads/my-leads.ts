/**
 * /my-leads: the signed-in digger's completed purchases with the client's contact details,
 * and reporting an issue on one of them (spec sections 2, 4, 5, 8; design.md section 6).
 * Only the digger who owns a completed purchase ever sees its client or reports on it.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { ISSUE_MESSAGES, issueTypeLabel, parseIssueReport, REFUND_PERCENTAGES, type MyLead } from "#core/lead-issues.ts";
import { isUuid } from "#core/ids.ts";
import { requireDigger } from "../auth/guards.ts";
import type { Database } from "../db/client.ts";
import { diggerProfiles, gigs, leadIssues, leadPurchases, users } from "../db/schema.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, toPage, type Page } from "../pagination.ts";

export const MY_LEADS_ACCESS = {
  signedOut: { message: "Please sign in to view your leads", redirectTo: "/auth?type=digger&redirect=/my-leads" },
  // A consumer has no digger profile either; /digger-registration would only turn them away.
  userType: { type: "digger", message: "Digger profile not found", redirectTo: "/" },
  diggerProfile: { message: "Digger profile not found", redirectTo: "/digger-registration" },
} as const;

/** One page of a digger's completed purchases, newest purchased_at first. */
export async function listMyLeads(db: Database, diggerId: string, cursor: string | null, size = PAGE_SIZE): Promise<Page<MyLead>> {
  const after = decodeCursor(cursor, 2);
  const [purchasedAt, id] = after ?? [];
  const p = leadPurchases;
  const rows = await db
    .select({
      id: p.id,
      amountPaidCents: p.amountPaidCents,
      purchasedAt: exactTimestamp(p.purchasedAt),
      gig: {
        id: gigs.id,
        title: gigs.title,
        description: gigs.description,
        budgetMinCents: gigs.budgetMinCents,
        budgetMaxCents: gigs.budgetMaxCents,
        location: gigs.location,
        timeline: gigs.timeline,
        contactPreferences: gigs.contactPreferences,
      },
      client: { name: users.name, email: users.email, deleted: sql<boolean>`${users.deletedAt} is not null` },
      issueId: leadIssues.id,
      issueStatus: leadIssues.status,
    })
    .from(p)
    .innerJoin(gigs, eq(gigs.id, p.gigId))
    .innerJoin(users, eq(users.id, gigs.consumerId))
    .leftJoin(leadIssues, eq(leadIssues.leadPurchaseId, p.id))
    .where(
      and(
        eq(p.diggerId, diggerId),
        eq(p.status, "completed"),
        typeof purchasedAt === "string" && isUuid(id)
          ? sql`(${p.purchasedAt}, ${p.id}) < (${purchasedAt}::timestamptz, ${id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(p.purchasedAt), desc(p.id))
    .limit(size + 1);
  const page = toPage(rows, size, (row) => [row.purchasedAt, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map(({ issueId, issueStatus, ...lead }) => ({
      ...lead,
      issue: issueId && issueStatus ? { id: issueId, status: issueStatus } : null,
    })),
  };
}

/** The loader of /my-leads: the guards, then the page, or 'Failed to load leads'. */
export async function loadMyLeads(context: AppLoadContext, request: Request) {
  const { diggerId } = await requireDigger(context, request, MY_LEADS_ACCESS);
  const cursor = new URL(request.url).searchParams.get("cursor");
  try {
    return data({ page: await listMyLeads(context.services.db, diggerId, cursor), error: null });
  } catch (error) {
    context.logger.error({ err: error }, "loading leads failed");
    const empty: Page<MyLead> = { items: [], nextCursor: null };
    return data({ page: empty, error: ISSUE_MESSAGES.loadLeadsFailed }, { status: 500 });
  }
}

export interface ReportResult {
  error?: string;
  success?: string;
}
const result = (body: ReportResult, status = 200) => data(body, { status });

/**
 * The action of /my-leads: the signed-in digger reports an issue on one of their completed
 * purchases. The refund percentage comes from the issue type; the unique index
 * lead_issues_purchase_key keeps it to one issue per purchase. The client is e-mailed.
 */
export async function reportIssue(context: AppLoadContext, request: Request) {
  const { user, diggerId } = await requireDigger(context, request, MY_LEADS_ACCESS);
  const { db, mailer, config, logger } = context.services;
  const form = await request.formData();
  const parsed = parseIssueReport({ issueType: form.get("issueType"), description: form.get("description") });
  if (!parsed.ok) return result({ error: parsed.error }, 400);
  const purchaseId = form.get("purchaseId");
  if (!isUuid(purchaseId)) return result({ error: ISSUE_MESSAGES.reportFailed }, 404);
  const { issueType, description } = parsed.value;

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
  if (!lead) return result({ error: ISSUE_MESSAGES.reportFailed }, 404);

  const refundPercentage = REFUND_PERCENTAGES[issueType];
  try {
    await db.insert(leadIssues).values({ leadPurchaseId: purchaseId, diggerId, issueType, description, refundPercentage });
  } catch (error) {
    if (isUniqueViolation(error, "lead_issues_purchase_key")) return result({ error: ISSUE_MESSAGES.alreadyReported }, 409);
    logger.error({ err: error, purchaseId, userId: user.id }, "reporting a lead issue failed");
    return result({ error: ISSUE_MESSAGES.reportFailed }, 500);
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
  return result({ success: ISSUE_MESSAGES.reported });
}
