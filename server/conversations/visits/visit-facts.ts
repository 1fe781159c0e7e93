/**
 * What a visit's events name (issue 50): the thread's two parties, the gig's title, the digger's
 * handle and the client's first name, read from the thread's own rows.
 */
import { eq, sql } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import { diggerProfiles, gigs, leadPurchases, threads, users } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { visits } from "../../db/schema.ts";
import type { VisitFacts } from "../../events/visit-details.ts";

export async function visitFacts(tx: Transaction, threadId: string): Promise<VisitFacts> {
  const [row] = await tx
    .select({
      diggerUserId: threads.diggerUserId,
      clientId: threads.clientId,
      gigTitle: gigs.title,
      handle: diggerProfiles.handle,
      clientName: sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${threads.clientId})`,
    })
    .from(threads)
    .innerJoin(leadPurchases, eq(leadPurchases.id, threads.purchaseId))
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(eq(threads.id, threadId));
  if (!row) throw new AppError("not_found", "Page not found");
  return {
    threadId,
    diggerUserId: row.diggerUserId,
    clientId: row.clientId,
    gigTitle: row.gigTitle,
    handle: row.handle,
    clientName: (row.clientName ?? "").trim().split(/\s+/)[0] || "The client",
  };
}

/** A booked visit's time as its events carry it. */
export const visitTime = (visit: Pick<typeof visits.$inferSelect, "id" | "sequence" | "startsAt" | "windowMinutes">) => ({
  visitId: visit.id,
  sequence: visit.sequence,
  startsAt: visit.startsAt.toISOString(),
  windowMinutes: visit.windowMinutes,
});
