/**
 * The visits' reaction to a suspension (the event "account.suspended", wired by
 * server/services.ts): the suspended account's upcoming visits, as digger or as client, are
 * cancelled by the system in the suspension's transaction, and both parties of each are told
 * (cancel-visit.ts `cancelUpcomingVisits`: "visit.cancelled" with `by` 'system').
 */
import type { Reactions } from "../../events/emit.ts";
import { cancelUpcomingVisits } from "./cancel-visit.ts";

/** What the visits do when another area's event happens. */
export const VISIT_REACTIONS: Reactions = {
  "account.suspended": async (tx, { userId }, emit) => {
    await cancelUpcomingVisits(tx, emit, { userId });
  },
};
