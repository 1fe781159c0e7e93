/**
 * A resource route (no page): the issues on one of my gigs for the issues dialog of /my-gigs
 * (GET, loaded with a fetcher), and approving or rejecting one of them (POST). Only the
 * gig's owner gets anything but 404.
 */
import { ISSUE_MESSAGES } from "#core/lead-issues.ts";
import { requireUser } from "#server/auth/guards.ts";
import { GIG_ISSUES_ACCESS, gigIssues } from "#server/leads/gig-issues.ts";
import { decideIssue } from "#server/leads/resolve-issue.ts";
import { runAction } from "#server/web/respond.ts";
import type { Route } from "./+types/my-gigs.$gigId.issues";

// Read by a fetcher, which shows a failure ('Failed to load issues') as a toast and keeps the
// dialog closed: the failure is answered as data with its status, as an action's is. Thrown
// (runLoader), it would put /my-gigs itself under its error page.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return runAction(context, async () => {
    const user = await requireUser(context, request, GIG_ISSUES_ACCESS);
    return gigIssues(context.services.db, user.id, params.gigId);
  });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return runAction(context, async () => {
    const user = await requireUser(context, request, GIG_ISSUES_ACCESS);
    const { decision } = await decideIssue(context.services, user.id, params.gigId, await request.formData());
    return { success: decision === "approve" ? ISSUE_MESSAGES.approved : ISSUE_MESSAGES.rejected };
  });
}
