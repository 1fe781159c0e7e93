/**
 * Who may hold live streams (issue 45, finding 3): an account with a confirmed e-mail address
 * and at least one thread. A stream only ever carries its user's thread and quote events, and
 * every such event is about a thread of theirs, so an account without one has nothing to hear;
 * a throwaway account (unconfirmed, no purchase behind it) holds no slot of a server's
 * LIVE_MAX_STREAMS. The stream answers the others 204 (stream-route.ts), and their pages, told
 * by their loaders, do not open it (app/lib/use-live-events.ts).
 */
import { sql, type SQLWrapper } from "drizzle-orm";
import { queryRows, type Database } from "../db/client.ts";

/**
 * The rule's first half, for a statement that has found a thread of the user's already (the
 * thread page's head, the inbox's rows): whether the account's address is confirmed.
 */
export const confirmedAddress = (userId: SQLWrapper | string) =>
  sql<boolean>`coalesce((select me.email_verified from users me where me.id = ${userId}), false)`;

export async function mayHoldLiveStreams(db: Database, userId: string): Promise<boolean> {
  // Two EXISTS, each on its party's inbox index, rather than one OR over both columns.
  const [row] = await queryRows<{ allowed: boolean }>(
    db,
    sql`select u.email_verified and (exists (select 1 from threads t where t.digger_user_id = u.id)
          or exists (select 1 from threads t where t.client_id = u.id)) as allowed
        from users u where u.id = ${userId}`,
  );
  return row?.allowed === true;
}
