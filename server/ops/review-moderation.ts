/**
 * The console's Reviews queue (issue 22): reviews with open reports, the longest-waiting
 * first, each with every open report's reason; Hide takes the review off the profile and out
 * of the digger's figures (the rating trigger leaves hidden reviews out, migration 0023), Keep
 * leaves it. Either closes all its open reports, in one transaction with the audit row.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { OPS_REVIEW_MESSAGES, reviewModerationSchema, type ReportedReview } from "#core/ops-moderation.ts";
import { queryRows, type Database } from "../db/client.ts";
import { diggerProfiles, gigs, reviewReports, reviews } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

interface Row {
  id: string;
  rating: number;
  body: string;
  created_at: string;
  digger_id: string;
  handle: string;
  digger_user_id: string;
  first_reported: string;
  reasons: string[];
}

export async function reportedReviews(db: Database, cursorParam: string | null): Promise<Page<ReportedReview>> {
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  const after = cursor
    ? sql`where (open.first_reported, open.review_id) > (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)`
      : sql``;
  // Open reports come from review_reports_open_idx (only unresolved rows are in it).
  const rows = await queryRows<Row>(
    db,
    sql`select r.id, r.rating, r.body, to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
               p.id as digger_id, p.handle, p.user_id as digger_user_id,
               to_char(open.first_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as first_reported, open.reasons
        from (select ${reviewReports.reviewId} as review_id, min(${reviewReports.createdAt}) as first_reported,
                     array_agg(${reviewReports.reason} order by ${reviewReports.createdAt}) as reasons
              from ${reviewReports} where ${reviewReports.resolvedAt} is null group by ${reviewReports.reviewId}) open
        join ${reviews} r on r.id = open.review_id
        join ${diggerProfiles} p on p.id = r.digger_id
        ${after}
        order by open.first_reported, open.review_id
        limit ${PAGE_SIZE + 1}`,
  );
  const page = toPage(rows, PAGE_SIZE, (row) => [row.first_reported, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      id: row.id,
      rating: Number(row.rating),
      body: row.body,
      createdAt: row.created_at,
      diggerId: row.digger_id,
      diggerHandle: row.handle,
      diggerUserId: row.digger_user_id,
      firstReportedAt: row.first_reported,
      reasons: row.reasons,
    })),
  };
}

export const moderateReview = defineOperation({
  access: operator,
  input: reviewModerationSchema,
  async run({ services, user: operator, input: { intent, reviewId } }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [review] = await tx
        .select({ id: reviews.id, diggerUserId: diggerProfiles.userId, clientId: gigs.clientId })
        .from(reviews)
        .innerJoin(diggerProfiles, eq(diggerProfiles.id, reviews.diggerId))
        .innerJoin(gigs, eq(gigs.id, reviews.gigId))
        .where(eq(reviews.id, reviewId))
        .for("no key update", { of: reviews });
      if (!review) throw new AppError("not_found", "Review not found");
      // A review of them or by them (the client who posted the gig).
      refuseOwnRecord(operator.id, review.diggerUserId, review.clientId);
      const closed = await tx
        .update(reviewReports)
        .set({ resolvedAt: sql`now()`, resolution: intent === "hide" ? "hidden" : "kept" })
        .where(and(eq(reviewReports.reviewId, reviewId), isNull(reviewReports.resolvedAt)))
        .returning({ reason: reviewReports.reason });
      if (closed.length === 0) throw new AppError("conflict", OPS_REVIEW_MESSAGES.noOpenReports);
      if (intent === "hide") await tx.update(reviews).set({ hiddenAt: sql`now()` }).where(eq(reviews.id, reviewId));
      await services.emit(tx, { kind: "review.moderated", operatorId: operator.id, reviewId, diggerUserId: review.diggerUserId, hidden: intent === "hide", reports: closed.length });
      return { success: intent === "hide" ? OPS_REVIEW_MESSAGES.hidden : OPS_REVIEW_MESSAGES.kept };
    });
  },
});

/** The Reviews section: a page of reported reviews. */
export const reportedReviewsPage = defineOperation({
  access: operator,
  async run({ services, url }) {
    return { page: await reportedReviews(services.db, url.searchParams.get("cursor")) };
  },
});
