import { useState, type ReactNode } from "react";
import { useFetcher, useLocation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { resultCountText } from "#core/result-count.ts";

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list that grows: "Load more" appends the next page (loaded by a fetcher from the same
 * route, the filters kept from the address) instead of replacing the page, so a person keeps
 * what they have already scrolled past. Without JavaScript the button is a plain link to the
 * next page; a page opened at a cursor that way (or from a shared link) offers `firstPage`, the
 * way back to the start of the list. New loader data (other filters) starts the list again.
 */
export function useAppendingList<T extends { id: string }>(first: Page<T>): { items: T[]; loadMore: ReactNode; firstPage: ReactNode } {
  const fetcher = useFetcher<{ page: Page<T> }>();
  const location = useLocation();
  const [list, setList] = useState({ first, items: first.items, nextCursor: first.nextCursor, seen: fetcher.data });
  // State adjusted during render when its inputs change (not in an effect): new filters, or a page loaded.
  if (list.first !== first) {
    setList({ first, items: first.items, nextCursor: first.nextCursor, seen: fetcher.data });
  } else if (fetcher.data !== list.seen && fetcher.state === "idle" && fetcher.data) {
    const { page } = fetcher.data;
    const known = new Set(list.items.map((item) => item.id));
    setList({ ...list, items: [...list.items, ...page.items.filter((item) => !known.has(item.id))], nextCursor: page.nextCursor, seen: fetcher.data });
  }
  let loadMore: ReactNode = null;
  if (list.nextCursor) {
    const params = new URLSearchParams(location.search);
    params.set("cursor", list.nextCursor);
    const href = `${location.pathname}?${params.toString()}`;
    const busy = fetcher.state !== "idle";
    loadMore = (
      <div className="mt-8 flex justify-center">
        <Button asChild variant="outline">
          <Link
            to={href}
            preventScrollReset
            aria-disabled={busy || undefined}
            onClick={(event) => {
              event.preventDefault();
              if (!busy) void fetcher.load(href);
            }}
          >
            {busy ? "Loading..." : "Load more"}
          </Link>
        </Button>
      </div>
    );
  }
  return { items: list.items, loadMore, firstPage: <FirstPageLink /> };
}

/** On a page opened at a cursor: it shows a later page only, so it says so and links to the first. */
function FirstPageLink() {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  if (!params.has("cursor")) return null;
  params.delete("cursor");
  const search = params.toString();
  return (
    <p className="mb-4 text-sm text-muted-foreground">
      {"These are later results. "}
      <Link to={search ? `${location.pathname}?${search}` : location.pathname} className="font-medium text-foreground underline underline-offset-4">
        Back to the first page
      </Link>
    </p>
  );
}

/** "24 gigs match" (or "1,000+ gigs match": lists count up to a cap), announced politely. */
export function ResultCount({ count, noun }: { count: number; noun: [one: string, many: string] }) {
  return (
    <p role="status" className="mb-4 text-sm text-muted-foreground">
      {resultCountText(count, noun)}
    </p>
  );
}

/** The empty result: the spec's words, and a way back to everything when filters are set. */
export function EmptyResult({ message, filtered, clearTo }: { message: string; filtered: boolean; clearTo: string }) {
  return (
    <div className="grid justify-items-center gap-4 py-12 text-center">
      <p className="text-muted-foreground">{message}</p>
      {filtered ? (
        <Button asChild variant="outline">
          <Link to={clearTo}>Clear filters</Link>
        </Button>
      ) : null}
    </div>
  );
}
