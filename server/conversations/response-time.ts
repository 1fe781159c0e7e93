/**
 * Response time, earned (issue 33): for each digger, their purchases of the last 90 days with
 * the first answer in each purchase's thread (the digger's first message or quote), in one query,
 * read by core/response-time.ts's rule. The profile, Browse Talent's cards and the quote
 * comparison all ask here; nothing is stored.
 *
 * Only what still stands counts (issue 45, finding 8): a purchase refunded in full is left out
 * (purchase_fully_refunded, migration 0027, as for ratings and the hire rate); a message counts
 * while it is shown (not hidden by an operator, not deleted); a quote counts from its first
 * version's time unless its latest version was withdrawn (a revision is the same answer,
 * revising then withdrawing is withdrawing). Each purchase carries its gig's client, for the
 * rule's 3 different clients.
 */
import { sql } from "drizzle-orm";
import { RESPONSE_WINDOW_DAYS, responseTimeLabel, type PurchaseResponse } from "#core/response-time.ts";
import { queryRows, type Database } from "../db/client.ts";

/** Each digger's 'Usually responds within …', or null (not measured, or slower than a day). */
export async function responseTimes(db: Database, diggerIds: string[], now: Date = new Date()): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>(diggerIds.map((id) => [id, null]));
  if (diggerIds.length === 0) return found;
  const since = new Date(now.getTime() - RESPONSE_WINDOW_DAYS * 86_400_000);
  // lead_purchases_digger_idx (digger_id, purchased_at) finds the window; each thread's first answer by its own index;
  // a thread's quote versions (a few) are followed from each first version to its latest.
  const rows = await queryRows<{ diggerId: string; clientId: string; purchasedAt: string | Date; firstAnswerAt: string | Date | null }>(
    db,
    sql`
      select lp.digger_id as "diggerId", g.consumer_id as "clientId", lp.purchased_at as "purchasedAt",
        least(
          (select min(m.created_at) from messages m
            where m.thread_id = t.id and m.sender_id = t.digger_user_id and m.hidden_at is null and m.deleted_at is null),
          (with recursive versions (id, status, first_at) as (
              select q.id, q.status, q.created_at from quotes q where q.thread_id = t.id and q.replaces_id is null
              union all
              select q.id, q.status, v.first_at from quotes q join versions v on q.replaces_id = v.id where q.thread_id = t.id
            )
            select min(first_at) from versions where status not in ('replaced', 'withdrawn'))
        ) as "firstAnswerAt"
      from lead_purchases lp
      join gigs g on g.id = lp.gig_id
      left join threads t on t.purchase_id = lp.id
      where lp.digger_id in (${sql.join(
        diggerIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and lp.status = 'completed' and lp.purchased_at >= ${since.toISOString()}::timestamptz and lp.purchased_at <= ${now.toISOString()}::timestamptz
        and not purchase_fully_refunded(lp.id)
    `,
  );
  const byDigger = new Map<string, PurchaseResponse[]>();
  for (const row of rows) {
    const purchase = { purchasedAt: new Date(row.purchasedAt), clientId: row.clientId, firstAnswerAt: row.firstAnswerAt === null ? null : new Date(row.firstAnswerAt) };
    byDigger.set(row.diggerId, [...(byDigger.get(row.diggerId) ?? []), purchase]);
  }
  for (const [diggerId, purchases] of byDigger) found.set(diggerId, responseTimeLabel(purchases, now));
  return found;
}

/** One digger's label (the profile). */
export async function responseTimeOf(db: Database, diggerId: string, now: Date = new Date()): Promise<string | null> {
  return (await responseTimes(db, [diggerId], now)).get(diggerId) ?? null;
}
