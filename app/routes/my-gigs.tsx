import { redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { ConfirmEmailNotice } from "#app/components/confirm-email-notice.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { DeleteGigButton } from "#app/features/gigs/delete-gig-button.tsx";
import { MyGigCard, myGigTitleId } from "#app/features/gigs/my-gig-card.tsx";
import { GigPhoneStatus, VERIFY_GIG_PHONE_INTENT } from "#app/features/phones/gig-phone-status.tsx";
import { GigIssuesButton } from "#app/features/leads/gig-issues-dialog.tsx";
import { GigDiggersButton } from "#app/features/reviews/gig-diggers-dialog.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { almostDoneText } from "#core/gig-texts.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { keepOpen } from "#server/gigs/keep-open.ts";
import { resendGigsConfirmation } from "#server/gigs/resend-gigs-confirmation.ts";
import { verifyPhonePath } from "#server/gigs/gig-phone.ts";
import { switchGigStatus } from "#server/gigs/switch-gig-status.ts";
import { verifyGigPhone } from "#server/gigs/verify-gig-phone.ts";
import { myGigs } from "#server/gigs/view-my-gigs.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/my-gigs";

export const meta = () => pageMeta("My Gigs", "Manage your posted gigs and review lead requests.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, myGigs);
}

/**
 * One operation per intent: a new confirmation e-mail, keeping a hired gig open for more diggers
 * (also sent by the accepted quote's notice in a thread), 'Verify this number' (a code to the
 * gig's phone, then the code step, issue 49), or opening or closing a gig (any other intent).
 */
export async function action(args: Route.ActionArgs) {
  return serveIntents(args, {
    "resend-confirmation": resendGigsConfirmation,
    "keep-open": keepOpen,
    [VERIFY_GIG_PHONE_INTENT]: answering(verifyGigPhone, ({ verified }) =>
      verified ? redirectWithFlash(args.context.services.config, "/my-gigs", "success", PHONE_TEXTS.verified) : redirect(verifyPhonePath("/my-gigs")),
    ),
    "*": switchGigStatus,
  });
}

export default function MyGigs({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/my-gigs";
  // Kept while any gig waits for the client's e-mail confirmation (issue 47).
  const unpublished = page.items.some((gig) => !gig.published);
  return (
    <div>
      <Button asChild variant="ghost" className="mb-4">
        <Link to="/">Back to Home</Link>
      </Button>
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">My Gigs</h1>
          <p className="mt-2 text-muted-foreground">Manage your posted gigs and review lead requests</p>
        </div>
        <Button asChild>
          <Link to="/post-gig">Post New Gig</Link>
        </Button>
      </div>
      {unpublished ? (
        <div className="mb-6">
          <ConfirmEmailNotice title={almostDoneText(loaderData.email)}>Diggers see your gigs once you open the link.</ConfirmEmailNotice>
        </div>
      ) : null}
      {loading ? (
        <p role="status" className="py-12 text-center text-muted-foreground">
          Loading your gigs...
        </p>
      ) : page.items.length === 0 ? (
        <div className="grid justify-items-center gap-4 py-12 text-center">
          <p className="text-muted-foreground">You haven't posted any gigs yet.</p>
          <Button asChild>
            <Link to="/post-gig">Post Your First Gig</Link>
          </Button>
        </div>
      ) : (
        <>
          <ul className="grid gap-4" aria-label="My gigs">
            {page.items.map((gig) => (
              <li key={gig.id}>
                <MyGigCard
                  gig={gig}
                  phone={<GigPhoneStatus gigId={gig.id} status={gig.phoneStatus} describedBy={myGigTitleId(gig.id)} />}
                  actions={
                    <div className="flex flex-wrap gap-2">
                      {gig.purchaseCount > 0 ? <GigDiggersButton gigId={gig.id} gigTitle={gig.title} /> : null}
                      <GigIssuesButton gigId={gig.id} gigTitle={gig.title} />
                      <Button asChild variant="outline" size="sm">
                        <Link to={`/my-gigs/${gig.id}/edit`} aria-describedby={myGigTitleId(gig.id)}>
                          Edit
                        </Link>
                      </Button>
                      {gig.deletable ? <DeleteGigButton gigId={gig.id} gigTitle={gig.title} describedBy={myGigTitleId(gig.id)} /> : null}
                    </div>
                  }
                />
              </li>
            ))}
          </ul>
          <NextPageLink nextCursor={page.nextCursor} />
        </>
      )}
    </div>
  );
}
