import { ArrowLeft, CalendarDays, Clock, EyeOff, MapPin, Users } from "#app/components/icons.tsx";
import { redirect } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Alert, AlertDescription, AlertTitle } from "#app/components/ui/alert.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { ClientContact } from "#app/features/leads/client-contact.tsx";
import { ClientRecordCard } from "#app/features/gigs/client-record.tsx";
import { ClientReviewsSection } from "#app/features/gigs/client-reviews-section.tsx";
import { DeleteGigButton } from "#app/features/gigs/delete-gig-button.tsx";
import { PurchaseCard } from "#app/features/leads/purchase-card.tsx";
import { PhoneStatus } from "#app/components/phone-status.tsx";
import { openGraph, pageMeta, publicUrlFrom } from "#app/lib/meta.ts";
import { budgetText } from "#core/money.ts";
import { viewGig, type WithdrawnNotice } from "#server/gigs/gig-page.ts";
import { reportClientReviewOnGig } from "#server/gigs/report-client-review.ts";
import { resendConfirmationToBuy } from "#server/leads/resend-confirmation-to-buy.ts";
import { startPurchase } from "#server/leads/start-purchase.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/gig";

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, viewGig);
}

/** Purchase Lead, a new confirmation e-mail for a digger who has to confirm theirs first, or a report of a client review. */
export async function action(args: Route.ActionArgs) {
  return serveIntents(
    args,
    {
      purchase: answering(startPurchase, ({ checkoutUrl }) => redirect(checkoutUrl)),
      "resend-confirmation": resendConfirmationToBuy,
      "report-review": reportClientReviewOnGig,
    },
    {
      // A report's failure names its review: without JavaScript the page shows it beside that review's form.
      echo: (form, intent) => (intent === "report-review" ? { reportedReviewId: String(form.get("reviewId") ?? "") } : {}),
    },
  );
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return pageMeta("Gig not found", "This gig does not exist.");
  const description = data.gig.description.slice(0, 160);
  const url = `${publicUrlFrom(matches)}${location.pathname}`;
  return [...pageMeta(data.gig.title, description), ...openGraph({ title: data.gig.title, description, url })];
};

export default function GigDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { gig, clientReviews } = loaderData;
  const purchases = `${gig.purchaseCount} ${gig.purchaseCount === 1 ? "purchase" : "purchases"}`;
  return (
    <div className="grid gap-6">
      <Button asChild variant="ghost" className="justify-self-start">
        <Link to="/browse-gigs">
          <ArrowLeft aria-hidden className="size-4" /> Back to Gigs
        </Link>
      </Button>
      {gig.published ? null : (
        <Alert role="status">
          <AlertTitle>Not published yet</AlertTitle>
          <AlertDescription>
            <p>
              Only you can see this gig. Confirm your e-mail to publish this gig: the link is in the e-mail we sent you, or
              send a new one from <Link to="/my-gigs" className="underline">My Gigs</Link>.
            </p>
          </AlertDescription>
        </Alert>
      )}
      {loaderData.withdrawn ? <WithdrawnAlert notice={loaderData.withdrawn} own={loaderData.own !== null} /> : null}
      {loaderData.contact ? (
        // Bought: the contact details come first, above the fold on a phone.
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold">You bought this lead: contact the client</h2>
          </CardHeader>
          <CardContent>
            <ClientContact client={loaderData.contact} gigTitle={gig.title} thread={loaderData.contact} phoneStatus={loaderData.phoneStatus} />
          </CardContent>
        </Card>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
        <Card className="lg:col-start-1">
          <CardHeader>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="secondary">{gig.categoryName}</Badge>
              {gig.status === "open" ? null : <Badge variant="outline">{gig.status}</Badge>}
            </div>
            <h1 className="text-3xl font-bold tracking-tight">{gig.title}</h1>
            <p className="text-sm text-muted-foreground">
              {loaderData.posted}
            </p>
          </CardHeader>
          <CardContent className="grid gap-6">
            <p className="whitespace-pre-line">{gig.description}</p>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail label="Budget" value={budgetText(gig.budgetMinCents, gig.budgetMaxCents)} />
              <Detail label="Timeline" value={gig.timeline} icon={<Clock aria-hidden className="size-4" />} />
              <Detail label="Location" value={gig.location} icon={<MapPin aria-hidden className="size-4" />} />
              <Detail
                label="Deadline"
                value={loaderData.deadline}
                icon={<CalendarDays aria-hidden className="size-4" />}
              />
              <Detail label="Leads purchased" value={purchases} icon={<Users aria-hidden className="size-4" />} />
              {loaderData.phoneStatus ? (
                // Before buying (issue 49): whether the client verified the phone, never the number.
                <div>
                  <dt className="text-sm text-muted-foreground">Phone</dt>
                  <dd>
                    <PhoneStatus status={loaderData.phoneStatus} large className="font-medium" />
                  </dd>
                </div>
              ) : null}
            </dl>
          </CardContent>
        </Card>
        {/* Before buying: what the client's earlier leads show (issue 48), read before the price and Buy. */}
        <div className="grid content-start gap-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <ClientRecordCard lines={loaderData.clientRecord} rating={loaderData.clientRating} />
          <aside aria-label="Purchase Lead">
            <PurchaseCard
              gigId={gig.id}
              notForSale={loaderData.notForSale}
              leadPriceCents={gig.leadPriceCents}
              spotsTaken={gig.spotsTaken}
              maxDiggers={gig.maxDiggers}
              purchased={loaderData.purchased}
              holding={loaderData.holding}
              confirmEmail={loaderData.confirmEmail}
              own={
                loaderData.own ? (
                  <div className="flex flex-wrap gap-2">
                    <Button asChild size="sm">
                      <Link to={`/my-gigs/${gig.id}/edit`}>Edit Gig</Link>
                    </Button>
                    {loaderData.own.deletable ? <DeleteGigButton gigId={gig.id} gigTitle={gig.title} /> : null}
                  </div>
                ) : null
              }
            />
          </aside>
        </div>
        {/* The diggers' reviews of the client (issue 51): under the gig, after Buy on a phone. */}
        {clientReviews.page.items.length > 0 || !clientReviews.firstPage ? (
          <div className="lg:col-start-1">
            <ClientReviewsSection
              page={clientReviews.page}
              firstPage={clientReviews.firstPage}
              report={loaderData.reviewReport ? { ...loaderData.reviewReport, result: actionData } : null}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A gig an operator took down, or whose client is suspended: its owner and operators see why
 * (the operator's reason is theirs only); a buyer, that it is no longer listed.
 */
function WithdrawnAlert({ notice, own }: { notice: WithdrawnNotice; own: boolean }) {
  const unlisted = "It is not on Browse Gigs and its lead cannot be bought.";
  return (
    <Alert role="status">
      <EyeOff aria-hidden />
      {notice.why === "hidden" ? (
        <>
          <AlertTitle>Hidden by an operator</AlertTitle>
          <AlertDescription>
            <p className="[overflow-wrap:anywhere]">{`Reason: ${notice.reason}`}</p>
            <p>
              {unlisted}
              {own ? (
                <>
                  {" If you think this is a mistake, write to us from the "}
                  <Link to="/contact" className="underline">
                    Contact
                  </Link>
                  {" page."}
                </>
              ) : null}
            </p>
          </AlertDescription>
        </>
      ) : notice.why === "owner_suspended" ? (
        <>
          <AlertTitle>Not listed: its client's account is suspended</AlertTitle>
          <AlertDescription>{unlisted}</AlertDescription>
        </>
      ) : (
        <>
          <AlertTitle>This gig is no longer listed</AlertTitle>
          <AlertDescription>You keep the client's contact details you paid for.</AlertDescription>
        </>
      )}
    </Alert>
  );
}

function Detail({ label, value, icon }: { label: string; value: string; icon?: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="flex items-center gap-2 font-medium">
        {icon}
        {value}
      </dd>
    </div>
  );
}
