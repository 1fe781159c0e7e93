/**
 * The seeded world's visits (issue 50), for the security tests' /visits rows: written once per
 * world in its thread between the owning client and the owning digger (world.ts), straight to
 * the database as a booking leaves them (tests/support/booked-visits.ts).
 */
import { hoursFromNow, insertVisit, type TestVisit } from "../support/booked-visits.ts";
import type { World } from "./world.ts";

const made = new WeakMap<World, Promise<TestVisit>>();

/**
 * A visit of the world's thread three days ago, marked 'Visited': past, so that no matrix row
 * (a block, a suspension) has it to cancel.
 */
export function worldPastVisit(w: World): Promise<TestVisit> {
  let visit = made.get(w);
  if (!visit) {
    visit = insertVisit(w.app, w.thread.id, hoursFromNow(-72), { diggerOutcome: "visited" });
    made.set(w, visit);
  }
  return visit;
}
