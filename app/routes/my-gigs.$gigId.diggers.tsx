/**
 * A resource route (no page): the diggers who bought one of my gigs' lead, for the Diggers
 * dialog of /my-gigs (GET, loaded with a fetcher), and what the client does there (POST):
 * mark as hired or undo, leave or edit a review. Only the gig's owner: 403 for anyone else.
 */
import { gigBuyersDialog } from "#server/reviews/gig-buyers.ts";
import { hireDigger } from "#server/reviews/mark-hired.ts";
import { unhireDigger } from "#server/reviews/undo-hire.ts";
import { editReview, writeReview } from "#server/reviews/write-review.ts";
import { serveFetched, serveIntents } from "#server/web/operations.ts";
import type { Route } from "./+types/my-gigs.$gigId.diggers";

// As the issues dialog's: a failure is answered as data with its status, shown as a toast.
export async function loader(args: Route.LoaderArgs) {
  return serveFetched(args, gigBuyersDialog);
}

export async function action(args: Route.ActionArgs) {
  return serveIntents(args, { hire: hireDigger, unhire: unhireDigger, review: writeReview, "edit-review": editReview });
}
