import { useNavigation } from "react-router";
import { EmptyResult, ResultCount, useAppendingList } from "#app/components/load-more.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { GigCard } from "#app/features/gigs/gig-card.tsx";
import { GigFilters } from "#app/features/gigs/gig-filters.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { browseGigsPage } from "#server/gigs/browse.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/browse-gigs";

export const meta = () => pageMeta("Browse Gigs", "Open service requests from local clients. Buy a lead to contact the client.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, browseGigsPage);
}

export default function BrowseGigs({ loaderData }: Route.ComponentProps) {
  const { page, categories, chosenCategories, filters } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/browse-gigs";
  const { items, loadMore, firstPage } = useAppendingList(page);
  const filtered = Boolean(filters.search || filters.location || filters.categoryIds.length > 0 || filters.budget || filters.verifiedPhone);
  // 'Near you' only when the list is the digger's own area; another place is named.
  const subtitle = loaderData.nearYou
    ? "Open requests from clients near you."
    : filters.location
      ? `Open requests from clients near ${filters.location}.`
      : "Open requests from clients.";
  return (
    <div>
      <PageHeader title="Browse Gigs" subtitle={subtitle} />
      <GigFilters
        categories={categories}
        chosenCategories={chosenCategories}
        search={filters.search}
        location={filters.location}
        budget={filters.budget}
        verifiedPhone={loaderData.verificationOn ? Boolean(filters.verifiedPhone) : null}
      />
      {firstPage}
      {loading ? (
        <p role="status" className="py-12 text-center text-muted-foreground">
          Loading gigs...
        </p>
      ) : items.length === 0 ? (
        <EmptyResult message="No gigs found. Try adjusting your filters." filtered={filtered} clearTo="/browse-gigs" />
      ) : (
        <>
          {loaderData.count !== null ? <ResultCount count={loaderData.count} noun={["gig", "gigs"]} /> : null}
          <ul className="grid gap-4" aria-label="Open gigs">
            {items.map((gig) => (
              <li key={gig.id}>
                <GigCard gig={gig} />
              </li>
            ))}
          </ul>
          {loadMore}
        </>
      )}
    </div>
  );
}
