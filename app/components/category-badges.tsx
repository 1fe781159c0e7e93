import { Badge } from "#app/components/ui/badge.tsx";
import { cardBadges } from "#core/digger-display.ts";

/** A card's categories: at most three badges, then a "+N more" count (spec sections 2 and 9). */
export function CategoryBadges({ names, label }: { names: string[]; label: string }) {
  const { shown, more } = cardBadges(names);
  if (shown.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap items-center gap-1.5">
      {shown.map((name) => (
        <li key={name}>
          <Badge variant="secondary" className="whitespace-normal">
            {name}
          </Badge>
        </li>
      ))}
      {more > 0 ? (
        <li>
          <Badge variant="outline">{`+${more} more`}</Badge>
        </li>
      ) : null}
    </ul>
  );
}

/** A gig's category, named as such for screen readers. */
export function CategoryBadge({ name }: { name: string }) {
  return (
    <Badge variant="secondary" className="whitespace-normal">
      <span className="sr-only">Category: </span>
      {name}
    </Badge>
  );
}
