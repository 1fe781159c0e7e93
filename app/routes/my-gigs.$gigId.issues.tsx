/**
 * A resource route (no page): the issues on one of my gigs for the issues dialog of /my-gigs
 * (GET, loaded with a fetcher), and approving or rejecting one of them (POST). Only the
 * gig's owner gets anything but 404.
 */
import { loadGigIssues, resolveIssueAction } from "#server/leads/issues.ts";
import type { Route } from "./+types/my-gigs.$gigId.issues";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadGigIssues(context, request, params.gigId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return resolveIssueAction(context, request, params.gigId);
}
