/**
 * Site visits in the security world's thread (issue 50), for the authorization matrix and the
 * bad-input tests: an open proposal of the owning digger, and a booked visit of the owning digger
 * and client, written straight to the database (the thread's forms have their own tests,
 * integration/visits-thread.test.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { visitOptions, visitProposals, visits } from "../../server/db/schema.ts";
import type { World } from "./world.ts";

const HOUR = 3600_000;

/** An open proposal in the world's thread, two times 3 and 4 days ahead; the open one before it withdrawn. */
export async function freshVisitProposal(w: World, status: "open" | "booked" = "open") {
  const db = w.app.database.db;
  await db
    .update(visitProposals)
    .set({ status: "withdrawn", decidedAt: sql`now()` })
    .where(and(eq(visitProposals.threadId, w.thread.id), eq(visitProposals.status, "open")));
  const [proposal] = await db
    .insert(visitProposals)
    .values({ threadId: w.thread.id, zone: "UTC", status, bookedPosition: status === "booked" ? 0 : null, decidedAt: status === "booked" ? new Date() : null })
    .returning();
  await db.insert(visitOptions).values([0, 1].map((position) => ({ proposalId: proposal!.id, position, startsAt: new Date(Date.now() + (72 + 24 * position) * HOUR), windowMinutes: 60 })));
  return proposal!;
}

/** A booked visit in the world's thread, its window opening `hours` from now (negative: closed a while ago). */
export async function freshVisit(w: World, hours = 72) {
  const proposal = await freshVisitProposal(w, "booked");
  const startsAt = new Date(Date.now() + hours * HOUR);
  const [visit] = await w.app.database.db
    .insert(visits)
    .values({
      threadId: w.thread.id,
      diggerUserId: w.users.owningDigger.id,
      clientId: w.users.owningClient.id,
      proposalId: proposal.id,
      startsAt,
      windowMinutes: 60,
      endsAt: new Date(startsAt.getTime() + HOUR),
    })
    .returning();
  return visit!;
}

/** The world thread's proposals made a day older: the matrix proposes as each role, under the limit of a day's proposals per thread. */
export async function ageVisitProposals(w: World) {
  await w.app.database.db.execute(sql`update visit_proposals set created_at = created_at - interval '25 hours' where thread_id = ${w.thread.id}`);
}
