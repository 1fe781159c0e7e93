import { redirect } from "react-router";
import { Link } from "#app/components/link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Alert, AlertDescription } from "#app/components/ui/alert.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { DeleteGigButton } from "#app/features/gigs/delete-gig-button.tsx";
import { GigForm } from "#app/features/gigs/gig-form.tsx";
import { EditGigPhoneNote, VERIFY_GIG_PHONE_INTENT, VerifyGigPhoneForm } from "#app/features/phones/gig-phone-status.tsx";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { GIG_EDIT_TEXTS } from "#core/gig-texts.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { verifyPhonePath } from "#server/gigs/gig-phone.ts";
import { removeGig } from "#server/gigs/remove-gig.ts";
import { saveGig } from "#server/gigs/save-gig.ts";
import { verifyGigPhone } from "#server/gigs/verify-gig-phone.ts";
import { editGigForm } from "#server/gigs/view-edit-gig.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/my-gigs.$gigId.edit";

export const meta = () => pageMeta("Edit Gig", "Change the details of a gig you posted.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, editGigForm);
}

/**
 * Save (the form), delete (intent=delete, from the confirmation of My Gigs, the gig page or here)
 * or 'Verify this number' (issue 49). A save that sent a code to the new number goes to the code
 * step, then My Gigs; one whose code was refused (a sending limit) says so after 'Gig updated'.
 */
export async function action(args: Route.ActionArgs) {
  const { config } = args.context.services;
  const toMyGigs = ({ flash }: { flash: string }) => redirectWithFlash(config, "/my-gigs", "success", flash);
  return serveIntents(args, {
    delete: answering(removeGig, toMyGigs),
    [VERIFY_GIG_PHONE_INTENT]: answering(verifyGigPhone, ({ gigId, verified }) =>
      verified ? redirectWithFlash(config, `/my-gigs/${gigId}/edit`, "success", PHONE_TEXTS.verified) : redirect(verifyPhonePath(`/my-gigs/${gigId}/edit`)),
    ),
    "*": answering(saveGig, ({ flash, code }) => {
      if (code.sent) return redirect(verifyPhonePath("/my-gigs"));
      return code.notice ? redirectWithFlash(config, "/my-gigs", "info", `${flash} ${code.notice}`) : toMyGigs({ flash });
    }),
  });
}

export default function EditGig({ loaderData, actionData }: Route.ComponentProps) {
  const { gig, categories } = loaderData;
  useActionToast(actionData);
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Edit Gig" subtitle={gig.values.title} />
      {gig.locked ? (
        <Alert className="mb-6">
          <AlertDescription>{GIG_EDIT_TEXTS.lockedNote}</AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardContent className="pt-6">
          <GigForm
            categories={categories}
            minDeadline={gig.minDeadline}
            errors={inlineErrors(actionData)}
            values={gig.values}
            phoneNote={<EditGigPhoneNote status={gig.phoneStatus} />}
            locked={gig.locked}
            submitLabel="Save Changes"
            busyLabel="Saving..."
            cancelTo="/my-gigs"
          />
        </CardContent>
      </Card>
      {gig.phoneStatus === "not_verified" ? <VerifyGigPhoneForm gigId={gig.id} /> : null}
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <Link to={`/gig/${gig.id}`} className="text-sm underline">
          View the gig's page
        </Link>
        {gig.deletable ? <DeleteGigButton gigId={gig.id} gigTitle={gig.values.title} /> : null}
      </div>
    </div>
  );
}
