/**
 * A sender's message limits (issue 32): 30 a minute and 500 a day per account, for messages and
 * visit proposals alike (each one tells the other party). Counted in the caller's own
 * transaction, by one statement, in the `rate_limits` table (rate-limiter-flexible's layout and
 * keys, server/security/rate-limiter.ts: its clean-up deletes the expired rows): the count
 * commits with the message or not at all, and a send waits for no commit of its own for it
 * (decision 0084; it was one before the send's transaction, decision 0078).
 */
import { sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { placeholder, preparedRows } from "../db/prepared.ts";

const MINUTE_MS = 60_000;
export const MESSAGE_LIMITS = {
  perMinute: { key: "messages-minute", max: 30, windowMs: MINUTE_MS },
  perDay: { key: "messages-day", max: 500, windowMs: 24 * 60 * MINUTE_MS },
} as const;

/** Epoch milliseconds, as the library's rows hold them; the database's clock, one for every server. */
const NOW_MS = sql`(extract(epoch from now()) * 1000)::bigint`;

/** Both windows' rows, one more message in each (prepared: server/db/prepared.ts, a send's hot path). */
const countMessage = preparedRows<{ key: string; points: number }>(
  "message_limits",
  () => sql`insert into rate_limits as r (key, points, expire)
    values (${placeholder("minuteKey")}, 1, ${NOW_MS} + ${sql.raw(String(MESSAGE_LIMITS.perMinute.windowMs))}),
           (${placeholder("dayKey")}, 1, ${NOW_MS} + ${sql.raw(String(MESSAGE_LIMITS.perDay.windowMs))})
    on conflict (key) do update set
      points = case when r.expire <= ${NOW_MS} then 1 else r.points + 1 end,
      expire = case when r.expire <= ${NOW_MS} then excluded.expire else r.expire end
    returning r.key, r.points`,
);

/**
 * Counts one message of `userId` in both windows (fixed windows, each from its first message,
 * as rate-limiter-flexible counts): false when either is used up. The caller refuses the message
 * then, and its transaction's rollback takes the count back with it: a refused message, for
 * these limits or any other reason (a block, a suspension), counts in neither window. The rows
 * stay locked to the commit: the same sender's messages at once are counted one after another.
 */
export async function takeMessageLimits(tx: Transaction, userId: string): Promise<boolean> {
  const { perMinute, perDay } = MESSAGE_LIMITS;
  const rows = await countMessage(tx, undefined, { minuteKey: `${perMinute.key}:${userId}`, dayKey: `${perDay.key}:${userId}` });
  const points = (key: string) => rows.find((row) => row.key === `${key}:${userId}`)?.points ?? Infinity;
  return points(perMinute.key) <= perMinute.max && points(perDay.key) <= perDay.max;
}
