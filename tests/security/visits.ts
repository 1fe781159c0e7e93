/**
 * Site visits in the security world's thread (issue 50), for the authorization matrix and the
 * bad-input tests: an open proposal of the owning digger, a booked visit of the owning digger
 * and client and a past one for /visits, written straight to the database (support/booked-visits.ts) (the thread's forms have their own tests,
 * integration/visits-thread.test.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { visitOptions, visitProposals } from "../../server/db/schema.ts";
import { hoursFromNow, insertVisit, type TestVisit } from "../support/booked-visits.ts";
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
export function freshVisit(w: World, hours = 72): Promise<TestVisit> {
  return insertVisit(w.app, w.thread.id, new Date(Date.now() + hours * HOUR));
}

const pastVisits = new WeakMap<World, Promise<TestVisit>>();

/**
 * A visit of the world's thread three days ago, marked 'Visited' (the /visits rows), written once
 * per world: past, so that no matrix row (a block, a suspension) has it to cancel.
 */
export function worldPastVisit(w: World): Promise<TestVisit> {
  let visit = pastVisits.get(w);
  if (!visit) {
    visit = insertVisit(w.app, w.thread.id, hoursFromNow(-72), { diggerOutcome: "visited" });
    pastVisits.set(w, visit);
  }
  return visit;
}

/** The world thread's proposals made a day older: the matrix proposes as each role, under the limit of a day's proposals per thread. */
export async function ageVisitProposals(w: World) {
  await w.app.database.db.execute(sql`update visit_proposals set created_at = created_at - interval '25 hours' where thread_id = ${w.thread.id}`);
}
