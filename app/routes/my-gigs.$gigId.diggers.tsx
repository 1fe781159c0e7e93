/**
 * A resource route (no page): the diggers who bought one of my gigs' lead, for the Diggers
 * dialog of /my-gigs (GET, loaded with a fetcher), and what the client does there (POST):
 * mark as hired or undo, leave or edit a review. Only the gig's owner: 403 for anyone else.
 */
import { requireUser } from "#server/auth/guards.ts";
import { GIG_BUYERS_ACCESS, gigBuyers } from "#server/reviews/gig-buyers.ts";
import { setHired } from "#server/reviews/hires.ts";
import { saveReview } from "#server/reviews/write-review.ts";
import { AppError } from "#server/errors.ts";
import { runAction } from "#server/web/respond.ts";
import type { Route } from "./+types/my-gigs.$gigId.diggers";

// As the issues dialog's: a failure is answered as data with its status, shown as a toast.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return runAction(context, async () => {
    const user = await requireUser(context, request, GIG_BUYERS_ACCESS);
    return gigBuyers(context.services.db, user.id, params.gigId);
  });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return runAction(context, async () => {
    const user = await requireUser(context, request, GIG_BUYERS_ACCESS);
    const form = await request.formData();
    const intent = form.get("intent");
    const services = context.services;
    if (intent === "hire" || intent === "unhire") return setHired(services, user.id, params.gigId, form.get("diggerId"), intent === "hire");
    if (intent === "review" || intent === "edit-review") return saveReview(services, user.id, params.gigId, form, intent === "edit-review");
    throw new AppError("invalid_input", "Unknown action");
  });
}
