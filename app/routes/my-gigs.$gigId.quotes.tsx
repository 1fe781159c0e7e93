import { Link } from "#app/components/link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { QuoteComparisonView } from "#app/features/quotes/quote-comparison.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useLiveRevalidate } from "#app/lib/use-live-events.ts";
import { COMPARE_TEXTS } from "#core/quote-views.ts";
import { compareQuotes } from "#server/conversations/compare-quotes.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/my-gigs.$gigId.quotes";

export const meta = () => [...pageMeta(COMPARE_TEXTS.title, "Compare the quotes diggers sent for your gig."), { name: "robots", content: "noindex" }];

/**
 * Compare Quotes (issue 33): the open quotes of one of my gigs side by side. Only the gig's
 * client: the 404 page for anyone else. Accept and Decline post to each quote's thread.
 */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, compareQuotes);
}

export default function CompareQuotes({ loaderData }: Route.ComponentProps) {
  const { comparison } = loaderData;
  // A quote sent, revised, withdrawn or decided meanwhile shows without a reload (only this gig's
  // client hears of its quotes: the quote events' live updates, server/events/live-updates.ts).
  useLiveRevalidate({ enabled: loaderData.live, since: loaderData.since, shows: (event) => event.kind === "quotes" && event.gigId === comparison.gig.id });
  return (
    <div>
      <Button asChild variant="ghost" className="mb-4">
        <Link to="/my-gigs">Back to My Gigs</Link>
      </Button>
      <PageHeader title={COMPARE_TEXTS.title} subtitle={comparison.gig.title} />
      <QuoteComparisonView comparison={comparison} />
    </div>
  );
}
