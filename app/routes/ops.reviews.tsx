import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Stars } from "#app/components/rating.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { ReportsAndDecision } from "#app/features/ops/reported-item.tsx";
import { moderateReview } from "#server/ops/moderate-review.ts";
import { reportedReviewsPage } from "#server/ops/view-reported-reviews.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.reviews";

/** Reviews: those with open reports, the longest-waiting first, with every report's reason. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, reportedReviewsPage);
}

/** Hide (off the profile, or the client's record, and out of the rating) or Keep a reported review; both close its reports. */
export async function action(args: Route.ActionArgs) {
  return serveAction(args, moderateReview);
}

export default function OpsReviews({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <div>
      <PageHeader title="Reviews" subtitle="Reviews people reported, the longest-waiting first: of diggers, and diggers' reviews of clients. Hide takes a review off the profile or the client's record and out of the rating; Keep leaves it." />
      {page.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No reported reviews.</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Reported reviews">
          {page.items.map((review) => (
            <li key={`${review.side}-${review.id}`} className="grid gap-2 p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <Stars rating={review.rating} />
                {review.client ? (
                  // A digger's review of a client (issue 51): whom it is about, and who wrote it.
                  <span>
                    <Badge variant="secondary" className="mr-1">
                      Review of a client
                    </Badge>
                    <Link to={`/ops/users/${review.client.id}`} className="underline">
                      {review.client.name}
                    </Link>
                    {" by "}
                    <Link to={`/digger/${review.diggerId}`} className="underline">
                      @{review.diggerHandle}
                    </Link>
                    , written {review.createdAtText}
                  </span>
                ) : (
                  <span>
                    on{" "}
                    <Link to={`/digger/${review.diggerId}`} className="underline">
                      @{review.diggerHandle}
                    </Link>
                    , written {review.createdAtText}
                  </span>
                )}
              </div>
              <p className="whitespace-pre-line [overflow-wrap:anywhere]">{review.body}</p>
              <ReportsAndDecision reasons={review.reasons} firstReportedText={review.firstReportedText} subject={{ reviewId: review.id, side: review.side }} />
            </li>
          ))}
        </ul>
      )}
      <NextPageLink nextCursor={page.nextCursor} label="More reported reviews" />
    </div>
  );
}
