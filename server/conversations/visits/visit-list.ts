/**
 * /visits (issue 50): the signed-in user's visits, as digger and as client, in two parts: the
 * upcoming ones (booked, window not yet closed), soonest first, then the past ones (window
 * closed, or cancelled), latest first; 20 a page, one keyset cursor across both parts
 * (`[part, starts_at, id]`). Each half reads its party's index (visits_digger_idx,
 * visits_client_idx) in the part's order and stops at a page and one row more; the page's rows
 * then join their thread's gig and the other party by primary keys: no query per row.
 */
import { sql, type SQL } from "drizzle-orm";
import { firstNameOrHandle, partyName } from "#core/messages.ts";
import { cancelledLine, VISIT_TEXTS, VISIT_WINDOWS, visitBookedLine, visitWithLine, type VisitCanceller, type VisitListItem } from "#core/visits.ts";
import type { Database } from "../../db/client.ts";
import { placeholder, preparedRows } from "../../db/prepared.ts";
import { diggerProfiles, gigs, leadPurchases, threads, users, visits } from "../../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, PART_TIMESTAMP_UUID_CURSOR, toPage, type Page } from "../../pagination.ts";
import type { ReaderTime } from "../../reader-time.ts";

interface Row {
  part: 0 | 1;
  id: string;
  thread_id: string;
  starts_at: string;
  window_minutes: number;
  mine: "digger" | "client";
  gig_title: string;
  handle: string | null;
  client_name: string | null;
  other_deleted: boolean;
  status: "booked" | "cancelled";
  cancelled_by: VisitCanceller | null;
  cancel_reason: string | null;
  late_cancellation: boolean;
  client_confirmed: boolean;
  change_requested: boolean;
  digger_outcome: "visited" | "client_absent" | null;
  client_outcome: "digger_absent" | null;
}

/** The longest arrival window: a visit that started longer ago than this has ended (the index's lower bound). */
const LONGEST_WINDOW = Math.max(...VISIT_WINDOWS);

/**
 * The list's statement (server/db/prepared.ts), per cursor: none, in the upcoming part (0) or in
 * the past part (1).
 */
const visitRows = preparedRows<Row, { part: 0 | 1 | null }>("visit_list", ({ part }) => {
  const userId = placeholder("userId");
  const size = placeholder("limit");
  const v = visits;
  // As the digger, or as the client (never both in one visit: a digger does not buy their own gig).
  const party = (as: "digger" | "client"): SQL =>
    as === "digger" ? sql`${v.diggerUserId} = ${userId}` : sql`${v.clientId} = ${userId} and ${v.diggerUserId} <> ${userId}`;
  const cursorAt = sql`(${placeholder("afterAt")}::timestamptz, ${placeholder("afterId")}::uuid)`;
  const upcomingAfter = part === 0 ? sql`and (${v.startsAt}, ${v.id}) > ${cursorAt}` : sql``;
  const pastBefore = part === 1 ? sql`and (${v.startsAt}, ${v.id}) < ${cursorAt}` : sql``;
  const upcomingHalf = (as: "digger" | "client") =>
    sql`(select ${v.id} as id, ${v.startsAt} as starts_at from ${v}
         where ${party(as)} and ${v.status} = 'booked'
           and ${v.startsAt} > now() - make_interval(mins => ${LONGEST_WINDOW}) and ${v.endsAt} > now() ${upcomingAfter}
         order by ${v.startsAt}, ${v.id} limit ${size})`;
  const pastHalf = (as: "digger" | "client") =>
    sql`(select ${v.id} as id, ${v.startsAt} as starts_at from ${v}
         where ${party(as)} and (${v.status} = 'cancelled' or ${v.endsAt} <= now()) ${pastBefore}
         order by ${v.startsAt} desc, ${v.id} desc limit ${size})`;
  const past = sql`(select 1 as part, id, starts_at from (${pastHalf("digger")} union all ${pastHalf("client")}) past
                    order by starts_at desc, id desc limit ${size})`;
  // A cursor in the past part: the upcoming part is behind the reader.
  const parts =
    part === 1
      ? past
      : sql`(select 0 as part, id, starts_at from (${upcomingHalf("digger")} union all ${upcomingHalf("client")}) upcoming
             order by starts_at, id limit ${size})
            union all ${past}`;
  return sql`select page.part, vv.id, vv.thread_id, ${exactTimestamp(sql`vv.starts_at`)} as starts_at, vv.window_minutes,
               case when vv.digger_user_id = ${userId} then 'digger' else 'client' end as mine,
               g.title as gig_title, dp.handle, cu.full_name as client_name,
               case when vv.digger_user_id = ${userId} then (cu.id is null or cu.deleted_at is not null)
                    else (du.id is null or du.deleted_at is not null) end as other_deleted,
               vv.status, vv.cancelled_by, vv.cancel_reason, vv.late_cancellation,
               vv.client_confirmed_at is not null as client_confirmed, vv.change_requested_at is not null as change_requested,
               vv.digger_outcome, vv.client_outcome
        from (${parts}) page
        join ${visits} vv on vv.id = page.id
        join ${threads} t on t.id = vv.thread_id
        join ${leadPurchases} p on p.id = t.purchase_id
        join ${gigs} g on g.id = p.gig_id
        left join ${diggerProfiles} dp on dp.id = p.digger_id
        left join ${users} cu on cu.id = vv.client_id
        left join ${users} du on du.id = vv.digger_user_id
        order by page.part,
                 case when page.part = 0 then vv.starts_at end asc, case when page.part = 0 then vv.id end asc,
                 case when page.part = 1 then vv.starts_at end desc, case when page.part = 1 then vv.id end desc
        limit ${size}`;
});

/** One page of `userId`'s visits from `cursorParam`, its texts in the reader's zone (`time`). */
export async function visitListPage(db: Database, userId: string, cursorParam: string | null, time: ReaderTime): Promise<Page<VisitListItem>> {
  const cursor = decodeCursor(cursorParam, PART_TIMESTAMP_UUID_CURSOR);
  const rows = await visitRows(db, { part: cursor ? cursor[0] : null }, { userId, limit: PAGE_SIZE + 1, afterAt: cursor?.[1], afterId: cursor?.[2] });
  const page = toPage(rows, PAGE_SIZE, (row) => [Number(row.part), row.starts_at, row.id]);
  return { nextCursor: page.nextCursor, items: page.items.map((row) => listItem(row, time)) };
}

/** A row as the list shows it: the other party by handle (to the client) or first name (to the digger). */
function listItem(row: Row, time: ReaderTime): VisitListItem {
  const handle = { role: "digger" as const, deleted: row.mine === "digger" ? false : row.other_deleted, handle: row.handle, fullName: null };
  const client = { role: "client" as const, deleted: row.mine === "client" ? false : row.other_deleted, handle: null, fullName: row.client_name };
  const other = row.mine === "digger" ? firstNameOrHandle(client) : partyName(handle);
  const cancellerName = (by: VisitCanceller | null): string | null => {
    if (by === null || by === "system") return null;
    if (by === row.mine) return "you";
    return by === "digger" ? partyName(handle) : firstNameOrHandle(client);
  };
  const states: string[] = [];
  if (row.late_cancellation) states.push(VISIT_TEXTS.lateCancellation);
  if (row.status === "booked" && row.client_confirmed) states.push(VISIT_TEXTS.clientConfirmed);
  if (row.status === "booked" && row.change_requested && Number(row.part) === 0) states.push(VISIT_TEXTS.changeRequested);
  if (row.digger_outcome === "visited") states.push(VISIT_TEXTS.visited);
  if (row.digger_outcome === "client_absent") states.push(VISIT_TEXTS.clientAbsent);
  if (row.client_outcome === "digger_absent") states.push(VISIT_TEXTS.diggerAbsent);
  return {
    id: row.id,
    threadId: row.thread_id,
    part: Number(row.part) === 0 ? "upcoming" : "past",
    startsAt: row.starts_at,
    line: visitBookedLine(time.visitWindow(row.starts_at, Number(row.window_minutes))),
    gigTitle: row.gig_title,
    withLine: visitWithLine(other),
    cancelled: row.status === "cancelled" ? cancelledLine(cancellerName(row.cancelled_by), row.cancel_reason) : null,
    states,
  };
}
