/**
 * A resource route (no page): the digger's review of the client of one of their leads (issue 51),
 * for the dialog opened from the lead's card on /my-leads and from the thread's menu: its state
 * (GET, loaded with a fetcher) and Submit Review (POST). Only the lead's digger: 403 for anyone else.
 */
import { clientReviewForm, writeClientReview } from "#server/reviews/client-review.ts";
import { serveAction, serveFetched } from "#server/web/operations.ts";
import type { Route } from "./+types/my-leads.$purchaseId.review";

// As the Diggers dialog's: a failure is answered as data with its status, shown as a toast.
export async function loader(args: Route.LoaderArgs) {
  return serveFetched(args, clientReviewForm);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, writeClientReview);
}
