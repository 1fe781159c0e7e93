/**
 * The lead behind a thread, as the quote operations need it: the thread's party (404 for anyone
 * else, access.ts), its gig, its digger and whether the purchase was refunded in full.
 * The party's role is checked here: only the digger quotes, only the client decides (403).
 */
import { eq, sql } from "drizzle-orm";
import { QUOTE_ANSWERS } from "#core/quotes.ts";
import type { Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases, threads, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { threadParty, type ThreadParty } from "./access.ts";
import { fullyRefunded } from "../reviews/gig-buyers.ts";

export interface ThreadLead {
  party: ThreadParty;
  threadId: string;
  gigId: string;
  gigTitle: string;
  diggerId: string;
  diggerUserId: string;
  handle: string;
  clientFirstName: string;
  refunded: boolean;
}

/** The thread locked, as its `role` party; the gig's row locked too (`lockGig`) where an accept decides among its quotes. */
export async function threadLead(tx: Transaction, userId: string, threadId: string, role: ThreadParty["role"], lockGig = false): Promise<ThreadLead> {
  const party = await threadParty(tx, userId, threadId, true);
  if (party.role !== role) throw new AppError("forbidden", role === "digger" ? QUOTE_ANSWERS.onlyDigger : QUOTE_ANSWERS.onlyClient);
  const [row] = await tx
    .select({
      gigId: gigs.id,
      gigTitle: gigs.title,
      diggerId: diggerProfiles.id,
      diggerUserId: diggerProfiles.userId,
      handle: diggerProfiles.handle,
      clientName: sql<string>`(select ${users.name} from ${users} where ${users.id} = ${gigs.clientId})`,
      refunded: fullyRefunded,
    })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(eq(threads.id, party.id));
  if (!row) throw new AppError("not_found", "Page not found");
  if (lockGig) await tx.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, row.gigId)).for("update");
  return {
    party,
    threadId: party.id,
    gigId: row.gigId,
    gigTitle: row.gigTitle,
    diggerId: row.diggerId,
    diggerUserId: row.diggerUserId,
    handle: row.handle,
    clientFirstName: (row.clientName ?? "").trim().split(/\s+/)[0] || "The client",
    refunded: row.refunded,
  };
}
