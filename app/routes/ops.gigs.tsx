import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { RowAction } from "#app/features/ops/row-action.tsx";
import { moderateGig } from "#server/ops/moderate-gig.ts";
import { gigsPage } from "#server/ops/view-gigs.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.gigs";

/** Gigs: every gig newest first (hidden and closed too), or those matching the search. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, gigsPage);
}

/** Hide (with a reason; the owner is told) or Restore a gig. */
export async function action(args: Route.ActionArgs) {
  return serveAction(args, moderateGig);
}

export default function OpsGigs({ loaderData }: Route.ComponentProps) {
  const { q, page } = loaderData;
  return (
    <div>
      <PageHeader title="Gigs" subtitle="Find a gig by its title, description or location; hide one that breaks the rules." />
      <Form method="get" className="mb-6 flex flex-wrap items-end gap-3" role="search" aria-label="Search gigs">
        <div className="grid min-w-0 flex-1 basis-56 gap-1">
          <Label htmlFor="gigs-q">Title, description or location</Label>
          <Input id="gigs-q" name="q" type="search" defaultValue={q} maxLength={100} />
        </div>
        <Button type="submit">Search</Button>
      </Form>
      {page.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{q ? "No gig matches." : "No gigs yet."}</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Gigs">
          {page.items.map((gig) => (
            <li key={gig.id} className="grid gap-3 p-3 text-sm md:grid-cols-[1fr_18rem]">
              <div className="grid min-w-0 content-start gap-1">
                <Link to={`/gig/${gig.id}`} className="font-semibold underline [overflow-wrap:anywhere]">
                  {gig.title}
                </Link>
                <p className="text-muted-foreground [overflow-wrap:anywhere]">
                  {gig.location} · posted {gig.createdAtText} by{" "}
                  <Link to={`/ops/users/${gig.ownerId}`} className="underline">
                    {gig.ownerEmail}
                  </Link>
                </p>
                <div className="flex flex-wrap gap-2">
                  <Badge variant="outline">{gig.status === "open" ? "Open" : "Closed"}</Badge>
                  {gig.published ? null : <Badge variant="outline">Unpublished</Badge>}
                  <Badge variant="outline">{`${gig.purchaseCount} ${gig.purchaseCount === 1 ? "purchase" : "purchases"}`}</Badge>
                  {gig.ownerSuspended ? <Badge variant="destructive">Owner suspended</Badge> : null}
                  {gig.hiddenAt ? <Badge variant="destructive">Hidden</Badge> : null}
                </div>
                {gig.hiddenAtText ? <p className="[overflow-wrap:anywhere]">{`Hidden ${gig.hiddenAtText}. Reason: ${gig.hiddenReason}`}</p> : null}
              </div>
              {gig.hiddenAt ? (
                <RowAction label="Restore" fields={{ intent: "restore", gigId: gig.id }} />
              ) : (
                <RowAction label="Hide" variant="destructive" fields={{ intent: "hide", gigId: gig.id }} reason={{ hint: "The owner is e-mailed with it; buyers keep the contact they paid for." }} />
              )}
            </li>
          ))}
        </ul>
      )}
      <NextPageLink nextCursor={page.nextCursor} label="More gigs" />
    </div>
  );
}
