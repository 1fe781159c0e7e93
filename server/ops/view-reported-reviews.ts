/**
 * The console's Reviews queue (issue 22): reviews with open reports, the longest-waiting
 * first, each with every open report's reason. Hide / Keep is moderate-review.ts.
 */
import { sql } from "drizzle-orm";
import type { ReportedReview } from "#core/ops-moderation.ts";
import { queryRows, type Database } from "../db/client.ts";
import { diggerProfiles, reviewReports, reviews } from "../db/schema.ts";
import { decodeCursor, PAGE_SIZE, TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../pagination.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";

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

async function reportedReviews(db: Database, cursorParam: string | null): Promise<Page<ReportedReview>> {
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
