import { Link, useSearchParams } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

/** "Load more": the same address with the next page's cursor (filters stay in the address); `param` names it where a page has two lists. */
export function NextPageLink({ nextCursor, label = "Load more", param = "cursor" }: { nextCursor: string | null; label?: string; param?: string }) {
  const [searchParams] = useSearchParams();
  if (!nextCursor) return null;
  const next = new URLSearchParams(searchParams);
  next.set(param, nextCursor);
  return (
    <div className="mt-8 flex justify-center">
      <Button asChild variant="outline">
        <Link to={`?${next.toString()}`} preventScrollReset={false}>
          {label}
        </Link>
      </Button>
    </div>
  );
}
