import { redirect } from "react-router";
import { FieldMessage } from "#app/components/form-field.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { GigForm } from "#app/features/gigs/gig-form.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { verifyPhonePath } from "#server/gigs/gig-phone.ts";
import { postGig } from "#server/gigs/post-gig.ts";
import { postGigPage } from "#server/gigs/view-post-gig.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/post-gig";


export const meta = () => pageMeta("Post a Gig", "Describe the work you need done and get discovered by local diggers. Posting is free.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, postGigPage);
}

const POSTED = "Gig posted successfully!";

/**
 * A published gig: 'Gig posted successfully!' on the home page (spec section 8). Not published
 * yet (the client's e-mail is not confirmed): My Gigs, which says what is left to do (issue 47).
 * A code sent to verify its phone: the code step first, then My Gigs (issue 49); a code refused
 * (a sending limit): the home page, saying so after the success.
 */
export async function action(args: Route.ActionArgs) {
  return serveAction(args, postGig, ({ published, code }) => {
    if (code.sent) return redirect(verifyPhonePath("/my-gigs"));
    if (!published) return redirect("/my-gigs");
    const { config } = args.context.services;
    return code.notice ? redirectWithFlash(config, "/", "info", `${POSTED} ${code.notice}`) : redirectWithFlash(config, "/", "success", POSTED);
  });
}

export default function PostGig({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData);
  const errors = inlineErrors(actionData);

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Post a Gig" subtitle="Describe your project. Posting is free for clients." />
      <Card>
        <CardContent className="pt-6">
          <GigForm
            categories={loaderData.categories}
            minDeadline={loaderData.today}
            defaultPhone={loaderData.phone}
            errors={errors}
            submitLabel="Post Gig"
            busyLabel="Posting..."
            cancelTo="/"
            footer={
              <div className="grid gap-1">
                <div className="flex items-start gap-2">
                  <Checkbox
                    id="acceptTerms"
                    name="acceptTerms"
                    required
                    className="mt-0.5"
                    aria-invalid={errors.acceptTerms ? true : undefined}
                    aria-describedby={errors.acceptTerms ? "acceptTerms-error" : undefined}
                  />
                  <Label htmlFor="acceptTerms" className="inline font-normal leading-snug">
                    I agree to the{" "}
                    <a href="/terms" target="_blank" rel="noopener noreferrer" className="underline">
                      Terms of Service
                    </a>{" "}
                    and{" "}
                    <a href="/privacy" target="_blank" rel="noopener noreferrer" className="underline">
                      Privacy Policy
                    </a>
                  </Label>
                </div>
                <FieldMessage id="acceptTerms" error={errors.acceptTerms} />
              </div>
            }
          />
        </CardContent>
      </Card>
    </div>
  );
}
