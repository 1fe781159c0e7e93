/**
 * The client's record as a digger reads it before buying (issue 48): the figures the database
 * keeps in the transactions that change them (migration 0052: client_records, one row a
 * client; client_reply_months, one a client and month), never counted from threads per
 * request. A record costs one primary-key row and at most RECORD_MONTHS rows of the months'
 * primary-key range, and one primary-key row of the client's visits (issue 50: visit_records).
 * The diggers' reviews of the client (issue 51) are columns of the same client_records row.
 * The gig page and Browse Gigs join it into their own query
 * (`recordMonths` + `recordColumns`); `clientRecordFigures` reads many clients in one query.
 */
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { RECORD_MONTHS, type ClientRecordFigures } from "#core/reply-guarantee.ts";
import type { Database } from "../db/client.ts";
import { clientRecords, clientReplyMonths, users, visitRecords } from "../db/schema.ts";

/** The first month counted: this month (UTC, as the triggers file a lead) and the RECORD_MONTHS - 1 before it. */
const FIRST_MONTH = sql.raw(`(date_trunc('month', now() at time zone 'UTC') - interval '${RECORD_MONTHS - 1} months')::date`);

const summed = (column: AnyPgColumn, alias: string) => sql<number>`coalesce(sum(${column}), 0)::int`.as(alias);

/**
 * The last RECORD_MONTHS months of client `clientId` (an outer query's column), summed: a
 * subquery to join with `leftJoinLateral(months, sql\`true\`)` (an aggregate: always one row).
 */
export function recordMonths(db: Database, clientId: AnyPgColumn | SQL.Aliased) {
  return db
    .select({
      leads: summed(clientReplyMonths.leads, "record_leads"),
      replied: summed(clientReplyMonths.replied, "record_replied"),
      withinHour: summed(clientReplyMonths.withinHour, "record_within_hour"),
      withinFewHours: summed(clientReplyMonths.withinFewHours, "record_within_few_hours"),
      withinDay: summed(clientReplyMonths.withinDay, "record_within_day"),
    })
    .from(clientReplyMonths)
    .where(sql`${clientReplyMonths.clientId} = ${clientId} and ${clientReplyMonths.month} >= ${FIRST_MONTH}`)
    .as("record_months");
}

/**
 * The figures as a nested selection, from `months` and client_records left-joined on the same
 * client (a client nobody bought from has no row: zeros), with the client's visits (`clientId`:
 * the same client's column). The review figures count published, shown, not withdrawn reviews
 * only (migration 0056's triggers): a blind review is in none of them.
 */
export function recordColumns(months: ReturnType<typeof recordMonths>, clientId: AnyPgColumn | SQL.Aliased) {
  // The client's kept and counted visits (issue 50): one primary-key row of visit_records, or none (zeros).
  const visitsAs = (column: "kept" | "counted") =>
    sql<number>`coalesce((select ${visitRecords[column]} from ${visitRecords} where ${visitRecords.userId} = ${clientId} and ${visitRecords.role} = 'client'), 0)`.mapWith(Number);
  return {
    leads: months.leads,
    replied: months.replied,
    withinHour: months.withinHour,
    withinFewHours: months.withinFewHours,
    withinDay: months.withinDay,
    leadsAllTime: sql<number>`coalesce(${clientRecords.leads}, 0)`,
    gigsBought: sql<number>`coalesce(${clientRecords.gigsBought}, 0)`,
    gigsHired: sql<number>`coalesce(${clientRecords.gigsHired}, 0)`,
    visitsKept: visitsAs("kept"),
    visitsCounted: visitsAs("counted"),
    reviewCount: sql<number>`coalesce(${clientRecords.reviewCount}, 0)`,
    // numeric(3, 2) arrives as text: a number for the lines.
    reviewAverage: sql<number>`coalesce(${clientRecords.reviewAverage}, 0)`.mapWith(Number),
    describedYes: sql<number>`coalesce(${clientRecords.describedYes}, 0)`,
    describedNo: sql<number>`coalesce(${clientRecords.describedNo}, 0)`,
    reachableYes: sql<number>`coalesce(${clientRecords.reachableYes}, 0)`,
    reachableNo: sql<number>`coalesce(${clientRecords.reachableNo}, 0)`,
    paidYes: sql<number>`coalesce(${clientRecords.paidYes}, 0)`,
    paidNo: sql<number>`coalesce(${clientRecords.paidNo}, 0)`,
  } satisfies Record<keyof ClientRecordFigures, unknown>;
}

/** The records of clients `clientIds` in one query, by client id (an unknown id is left out). */
export async function clientRecordFigures(db: Database, clientIds: readonly string[]): Promise<Map<string, ClientRecordFigures>> {
  if (clientIds.length === 0) return new Map();
  const months = recordMonths(db, users.id);
  const rows = await db
    .select({ clientId: users.id, record: recordColumns(months, users.id) })
    .from(users)
    .leftJoin(clientRecords, eq(clientRecords.clientId, users.id))
    .leftJoinLateral(months, sql`true`)
    .where(inArray(users.id, [...new Set(clientIds)]));
  return new Map(rows.map((row) => [row.clientId, row.record]));
}
