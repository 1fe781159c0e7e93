/**
 * /my-leads: the signed-in digger's completed purchases with the client's contact details
 * (spec sections 2, 4, 8; design.md section 6). Only the digger who owns a completed purchase
 * ever sees its client. Reporting an issue on one of them is in report-issue.ts.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { ISSUE_DEADLINE_DEFAULTS, ISSUE_MESSAGES, type MyLead } from "#core/lead-issues.ts";
import { isUuid } from "#core/ids.ts";
import type { Database } from "../db/client.ts";
import { gigs, leadIssues, leadPurchases, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, toPage, type Page } from "../pagination.ts";

export const MY_LEADS_ACCESS = {
  signedOut: { message: "Please sign in to view your leads", redirectTo: "/auth?type=digger&redirect=/my-leads" },
  // A consumer has no digger profile either; /digger-registration would only turn them away.
  userType: { type: "digger", message: "Digger profile not found", redirectTo: "/" },
  diggerProfile: { message: "Digger profile not found", redirectTo: "/digger-registration" },
} as const;

/**
 * One page of a digger's completed purchases, newest purchased_at first, with when each one's
 * report window (`reportDays` after the purchase) closes and whether it has, by the database's clock.
 */
export async function listMyLeads(
  db: Database,
  diggerId: string,
  cursor: string | null,
  size = PAGE_SIZE,
  reportDays: number = ISSUE_DEADLINE_DEFAULTS.reportDays,
): Promise<Page<MyLead>> {
  const after = decodeCursor(cursor, 2);
  const [purchasedAt, id] = after ?? [];
  const p = leadPurchases;
  const closesAt = sql`(${p.purchasedAt} + make_interval(days => ${reportDays}::int))`;
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
      reportClosesAt: exactTimestamp(closesAt),
      reportClosed: sql<boolean>`${closesAt} <= now()`,
      issueId: leadIssues.id,
      issueStatus: leadIssues.status,
      issueRespondBy: exactTimestamp(leadIssues.respondBy),
      issueDecidedBy: leadIssues.decidedBy,
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
    items: page.items.map(({ issueId, issueStatus, issueRespondBy, issueDecidedBy, ...lead }) => ({
      ...lead,
      issue: issueId && issueStatus ? { id: issueId, status: issueStatus, respondBy: issueRespondBy, decidedBy: issueDecidedBy } : null,
    })),
  };
}

/** The page /my-leads of digger `diggerId` from `cursor`; 'Failed to load leads' when it cannot be read. */
export async function myLeadsPage(
  { db, config }: { db: Database; config: { leadIssueReportDays: number } },
  diggerId: string,
  cursor: string | null,
): Promise<{ page: Page<MyLead> }> {
  try {
    return { page: await listMyLeads(db, diggerId, cursor, PAGE_SIZE, config.leadIssueReportDays) };
  } catch (error) {
    throw new AppError("failed", ISSUE_MESSAGES.loadLeadsFailed, { cause: error });
  }
}
