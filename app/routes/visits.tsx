import { useAppendingList } from "#app/components/load-more.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { VisitList } from "#app/features/visit-list/visit-list.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { VISIT_TEXTS } from "#core/visits.ts";
import { viewVisits } from "#server/conversations/visits/view-visits.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/visits";

export const meta = () => [...pageMeta(VISIT_TEXTS.visits, "Your site visits, upcoming and past."), { name: "robots", content: "noindex" }];

/** The signed-in user's visits (issue 50): upcoming first, then past, 20 a page. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, viewVisits);
}

export default function Visits({ loaderData }: Route.ComponentProps) {
  const { items, loadMore, firstPage } = useAppendingList(loaderData.page);
  return (
    <div>
      <PageHeader title={VISIT_TEXTS.visits} subtitle={VISIT_TEXTS.listSubtitle} />
      {firstPage}
      {items.length === 0 ? <p className="py-12 text-center text-muted-foreground">{VISIT_TEXTS.none}</p> : <VisitList visits={items} />}
      {loadMore}
    </div>
  );
}
