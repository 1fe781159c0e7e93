/**
 * What the code step (/verify-phone) reads of an account's one waiting code: its number, and
 * how long until a new code may be sent. Never the code's hash, nor the provider's id.
 */
import { sql } from "drizzle-orm";
import { RESEND_SECONDS } from "#core/phone-verification.ts";
import type { Database } from "../db/client.ts";
import { queryRows } from "../db/client.ts";

/** What a code verifies the number for: the account's number, or a gig's. */
export interface CodeTarget {
  forAccount: boolean;
  gigId: string | null;
}

export interface WaitingCode {
  /** E.164. */
  phone: string;
  /** What a right code verifies the number for; a new code goes for the same. */
  target: CodeTarget;
  /** Seconds until 'Send a new code' may be used (0: now). */
  resendInSeconds: number;
  /** When it was sent (epoch ms): which code the page shows, whatever the seconds left. */
  sentAt: number;
}

export async function waitingCode(db: Database, userId: string): Promise<WaitingCode | null> {
  const [row] = await queryRows<{ phone: string; for_account: boolean; gig_id: string | null; wait: number; sent_ms: number }>(
    db,
    sql`select phone, for_account, gig_id, (extract(epoch from sent_at) * 1000)::float8 as sent_ms,
               greatest(0, ceil(extract(epoch from (sent_at + make_interval(secs => ${RESEND_SECONDS}) - now()))))::int as wait
        from phone_codes where user_id = ${userId}`,
  );
  return row ? { phone: row.phone, target: { forAccount: row.for_account, gigId: row.gig_id }, resendInSeconds: row.wait, sentAt: Number(row.sent_ms) } : null;
}
