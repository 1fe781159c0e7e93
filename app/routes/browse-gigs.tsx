import { useNavigation } from "react-router";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { GigCard } from "#app/features/gigs/gig-card.tsx";
import { GigFilters } from "#app/features/gigs/gig-filters.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { listTopLevelCategories } from "#server/categories.ts";
import { listOpenGigs, parseBrowseFilters } from "#server/gigs/browse.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/browse-gigs";

export const meta = () => pageMeta("Browse Gigs", "Open service requests from local clients. Buy a lead to contact the client.");

export async function loader({ request, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const filters = parseBrowseFilters(new URL(request.url).searchParams);
    const [page, categories] = await Promise.all([
      listOpenGigs(context.services.db, filters),
      listTopLevelCategories(context.services.db),
    ]);
    return { page, categories, filters, now: new Date().toISOString() };
  });
}

export default function BrowseGigs({ loaderData }: Route.ComponentProps) {
  const { page, categories, filters } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/browse-gigs";
  const now = new Date(loaderData.now);
  return (
    <div>
      <PageHeader title="Browse Gigs" subtitle="Open requests from clients near you." />
      <GigFilters categories={categories} search={filters.search} categoryId={filters.categoryId} budget={filters.budget} />
      {loading ? (
        <p role="status" className="py-12 text-center text-muted-foreground">
          Loading gigs...
        </p>
      ) : page.items.length === 0 ? (
        <p className="py-12 text-center text-muted-foreground">No gigs found. Try adjusting your filters.</p>
      ) : (
        <>
          <ul className="grid gap-4" aria-label="Open gigs">
            {page.items.map((gig) => (
              <li key={gig.id}>
                <GigCard gig={gig} now={now} />
              </li>
            ))}
          </ul>
          <NextPageLink nextCursor={page.nextCursor} />
        </>
      )}
    </div>
  );
}
