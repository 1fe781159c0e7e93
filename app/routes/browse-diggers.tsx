import { Search } from "#app/components/icons.tsx";
import { useNavigation } from "react-router";
import { FilterForm } from "#app/components/filter-form.tsx";
import { EmptyResult, ResultCount, useAppendingList } from "#app/components/load-more.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { DiggerCard } from "#app/features/diggers/digger-card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { browseDiggersPage } from "#server/diggers/browse.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/browse-diggers";

export const meta = () => pageMeta("Browse Talent", "Find verified local service providers by skill, rating, experience and rate.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, browseDiggersPage);
}

const SORTS = [
  { value: "rating", label: "Highest Rated" },
  { value: "experience", label: "Most Experience" },
  { value: "rate", label: "Lowest Rate" },
];

export default function BrowseDiggers({ loaderData }: Route.ComponentProps) {
  const { filters, categories, page, count } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/browse-diggers";
  const { items, loadMore, firstPage } = useAppendingList(page);
  const filtered = Boolean(filters.q || filters.location || filters.category);
  return (
    <div>
      <PageHeader title="Browse Talent" subtitle="Find the right digger for your project." />
      <FilterForm label="Find diggers" className="mb-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-[1fr_12rem_auto_auto_auto] lg:items-end">
        <div className="grid gap-2">
          <Label htmlFor="q">Search</Label>
          <Input id="q" name="q" type="search" defaultValue={filters.q} placeholder="Search by profession, handle or bio" maxLength={100} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="location">Location</Label>
          <Input id="location" name="location" defaultValue={filters.location} placeholder="City or ZIP" maxLength={100} autoComplete="address-level2" />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="category">Category</Label>
          <NativeSelect id="category" name="category" defaultValue={filters.category}>
            <option value="">All Categories</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="sort">Sort by</Label>
          <NativeSelect id="sort" name="sort" defaultValue={filters.sort}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </FilterForm>

      {firstPage}
      {loading ? (
        <p role="status" className="py-12 text-center text-muted-foreground">
          Loading diggers...
        </p>
      ) : items.length === 0 ? (
        <EmptyResult message="No diggers found. Try adjusting your filters." filtered={filtered} clearTo="/browse-diggers" />
      ) : (
        <>
          {count !== null ? <ResultCount count={count} noun={["digger", "diggers"]} /> : null}
          <ul aria-label="Diggers" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {items.map((digger) => (
              <li key={digger.id}>
                <DiggerCard digger={digger} />
              </li>
            ))}
          </ul>
          {loadMore}
        </>
      )}
    </div>
  );
}
