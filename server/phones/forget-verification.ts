/**
 * 'Changing the number clears its verification' (issue 49): when the account's number or a
 * gig's changes away from `phone`, its verification is forgotten unless the account or another
 * of its gigs still gives that number. Called in the transaction of the change, after it.
 */
import { sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";

export async function forgetUnusedVerification(tx: Transaction, userId: string, phone: string | null): Promise<void> {
  if (!phone) return;
  await tx.execute(sql`
    delete from phone_verifications v
    where v.user_id = ${userId} and v.phone = ${phone}
      and not exists (select 1 from users u where u.id = ${userId} and u.phone = ${phone})
      and not exists (select 1 from gigs g where g.consumer_id = ${userId} and g.contact_phone = ${phone} and g.deleted_at is null)`);
}
