import { Star } from "lucide-react";
import { formatRating } from "#core/digger-display.ts";

/** "4.9 (132 reviews)": the rating with one decimal. */
export function Rating({ rating, count }: { rating: number; count: number }) {
  return (
    <p className="flex items-center gap-1.5 text-sm">
      <Star aria-hidden="true" className="size-4 fill-primary text-primary-strong" />
      <span className="font-semibold">
        <span className="sr-only">Rated </span>
        {formatRating(rating)}
        <span className="sr-only"> out of 5</span>
      </span>
      <span className="text-muted-foreground">
        ({count.toLocaleString("en-US")} {count === 1 ? "review" : "reviews"})
      </span>
    </p>
  );
}
