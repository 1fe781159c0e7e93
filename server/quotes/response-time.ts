/**
 * Response time, earned (issue 33): for each digger, their purchases of the last 90 days with
 * the first answer in each purchase's thread (the digger's first message or quote), in one query,
 * read by core/response-time.ts's rule. The profile, Browse Talent's cards and the quote
 * comparison all ask here.
 */
import { sql } from "drizzle-orm";
import { RESPONSE_WINDOW_DAYS, responseTimeLabel, type PurchaseResponse } from "#core/response-time.ts";
import { queryRows, type Database } from "../db/client.ts";

/** Each digger's 'Usually responds within …', or null (not measured, or slower than a day). */
export async function responseTimes(db: Database, diggerIds: string[], now: Date = new Date()): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>(diggerIds.map((id) => [id, null]));
  if (diggerIds.length === 0) return found;
  const since = new Date(now.getTime() - RESPONSE_WINDOW_DAYS * 86_400_000);
  // lead_purchases_digger_idx (digger_id, purchased_at) finds the window; each thread's first answer by its own index.
  const rows = await queryRows<{ diggerId: string; purchasedAt: string | Date; firstAnswerAt: string | Date | null }>(
    db,
    sql`
      select lp.digger_id as "diggerId", lp.purchased_at as "purchasedAt",
        least(
          (select min(m.created_at) from messages m where m.thread_id = t.id and m.sender_id = t.digger_user_id),
          (select min(q.created_at) from quotes q where q.thread_id = t.id)
        ) as "firstAnswerAt"
      from lead_purchases lp
      left join threads t on t.purchase_id = lp.id
      where lp.digger_id in (${sql.join(
        diggerIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and lp.status = 'completed' and lp.purchased_at >= ${since.toISOString()}::timestamptz and lp.purchased_at <= ${now.toISOString()}::timestamptz
    `,
  );
  const byDigger = new Map<string, PurchaseResponse[]>();
  for (const row of rows) {
    const purchase = { purchasedAt: new Date(row.purchasedAt), firstAnswerAt: row.firstAnswerAt === null ? null : new Date(row.firstAnswerAt) };
    byDigger.set(row.diggerId, [...(byDigger.get(row.diggerId) ?? []), purchase]);
  }
  for (const [diggerId, purchases] of byDigger) found.set(diggerId, responseTimeLabel(purchases, now));
  return found;
}

/** One digger's label (the profile). */
export async function responseTimeOf(db: Database, diggerId: string, now: Date = new Date()): Promise<string | null> {
  return (await responseTimes(db, [diggerId], now)).get(diggerId) ?? null;
}
