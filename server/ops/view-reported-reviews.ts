/**
 * The console's Reviews queue (issue 22): reviews with open reports, the longest-waiting
 * first, each with every open report's reason. Since issue 51 a report names a client's review
 * of a digger or a digger's review of a client (review_reports' one subject): both wait in this
 * one queue, the latter marked with its client. Hide / Keep is moderate-review.ts.
 */
import { sql } from "drizzle-orm";
import type { ReportedReview, ReviewSide } from "#core/ops-moderation.ts";
import { queryRows, type Database } from "../db/client.ts";
import { clientReviews, diggerProfiles, reviewReports, reviews, users } from "../db/schema.ts";
import { decodeCursor, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";

interface Row {
  id: string;
  side: ReviewSide;
  rating: number;
  body: string;
  created_at: string;
  digger_id: string;
  handle: string;
  digger_user_id: string;
  first_reported: string;
  reasons: string[];
  client_id: string | null;
  client_name: string | null;
}

async function reportedReviews(db: Database, cursorParam: string | null): Promise<Page<ReportedReview>> {
  const cursor = decodeCursor(cursorParam, TIMESTAMP_UUID_CURSOR);
  const after = cursor
    ? sql`where (open.first_reported, open.subject_id) > (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)`
      : sql``;
  // Open reports come from review_reports_open_idx (only unresolved rows are in it), grouped by
  // their subject: a review of a digger, or a digger's review of a client.
  const rows = await queryRows<Row>(
    db,
    sql`select open.subject_id as id, case when open.review_id is null then 'client' else 'digger' end as side,
               coalesce(r.rating, cr.rating) as rating, coalesce(r.body, cr.body) as body,
               to_char(coalesce(r.created_at, cr.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
               p.id as digger_id, p.handle, p.user_id as digger_user_id,
               to_char(open.first_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as first_reported, open.reasons,
               cu.id as client_id, cu.full_name as client_name
        from (select ${reviewReports.reviewId} as review_id, ${reviewReports.clientReviewId} as client_review_id,
                     coalesce(${reviewReports.reviewId}, ${reviewReports.clientReviewId}) as subject_id,
                     min(${reviewReports.createdAt}) as first_reported,
                     array_agg(${reviewReports.reason} order by ${reviewReports.createdAt}) as reasons
              from ${reviewReports} where ${reviewReports.resolvedAt} is null
              group by ${reviewReports.reviewId}, ${reviewReports.clientReviewId}) open
        left join ${reviews} r on r.id = open.review_id
        left join ${clientReviews} cr on cr.id = open.client_review_id
        join ${diggerProfiles} p on p.id = coalesce(r.digger_id, cr.digger_id)
        left join ${users} cu on cu.id = cr.client_id
        ${after}
        order by open.first_reported, open.subject_id
        limit ${PAGE_SIZE + 1}`,
  );
  const page = toPage(rows, PAGE_SIZE, (row) => [row.first_reported, row.id]);
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((row) => ({
      id: row.id,
      side: row.side,
      rating: Number(row.rating),
      body: row.body,
      createdAt: row.created_at,
      diggerId: row.digger_id,
      diggerHandle: row.handle,
      diggerUserId: row.digger_user_id,
      firstReportedAt: row.first_reported,
      reasons: row.reasons,
      client: row.client_id === null ? null : { id: row.client_id, name: row.client_name ?? "" },
    })),
  };
}

/** The Reviews section: a page of reported reviews. */
export const reportedReviewsPage = defineOperation({
  access: operator,
  async run({ services, user, url }) {
    const page = await reportedReviews(services.db, url.searchParams.get("cursor"));
    // Days in the operator's zone (issue 47).
    const time = readerTime(user.timeZone, services.config);
    const items = page.items.map((review) => ({ ...review, createdAtText: time.date(review.createdAt), firstReportedText: time.date(review.firstReportedAt) }));
    return { page: { ...page, items } };
  },
});
