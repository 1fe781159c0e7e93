/**
 * A resource route (no page): the issues on one of my gigs for the issues dialog of /my-gigs
 * (GET, loaded with a fetcher), and approving or rejecting one of them (POST). Only the
 * gig's owner gets anything but 404.
 */
import { gigIssuesDialog } from "#server/leads/gig-issues.ts";
import { decideGigIssue } from "#server/leads/resolve-issue.ts";
import { serveAction, serveFetched } from "#server/web/operations.ts";
import type { Route } from "./+types/my-gigs.$gigId.issues";

// Read by a fetcher, which shows a failure ('Failed to load issues') as a toast and keeps the
// dialog closed: the failure is answered as data with its status, as an action's is. Thrown
// (runLoader), it would put /my-gigs itself under its error page.
export async function loader(args: Route.LoaderArgs) {
  return serveFetched(args, gigIssuesDialog);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, decideGigIssue);
}
