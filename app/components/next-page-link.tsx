import { useSearchParams } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";

/**
 * "Load more": the same address with the next page's cursor (filters stay in the address); `param` names it where a page has two lists;
 * `hash` scrolls the next page to its list when the list is not the page's top.
 */
export function NextPageLink({ nextCursor, label = "Load more", param = "cursor", hash }: { nextCursor: string | null; label?: string; param?: string; hash?: string }) {
  const [searchParams] = useSearchParams();
  if (!nextCursor) return null;
  const next = new URLSearchParams(searchParams);
  next.set(param, nextCursor);
  return (
    <div className="mt-8 flex justify-center">
      <Button asChild variant="outline">
        <Link to={`?${next.toString()}${hash ? `#${hash}` : ""}`} preventScrollReset={false}>
          {label}
        </Link>
      </Button>
    </div>
  );
}
