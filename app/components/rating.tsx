import { Star } from "#app/components/icons.tsx";
import { formatRating } from "#core/digger-display.ts";
import { formatCount } from "#core/money.ts";

/**
 * "4.9 (132 reviews)": the rating with one decimal, from reviews only; a digger nobody has
 * reviewed yet is "New", never "0.0 (0 reviews)".
 */
export function Rating({ rating, count }: { rating: number; count: number }) {
  if (count === 0) {
    return (
      <p className="flex items-center gap-1.5 text-sm">
        <Star aria-hidden="true" className="size-4 text-muted-foreground" />
        <span className="font-semibold">New</span>
        <span className="sr-only">: no reviews yet</span>
      </p>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-sm">
      <Star aria-hidden="true" className="size-4 fill-primary text-primary-strong" />
      <span className="font-semibold">
        <span className="sr-only">Rated </span>
        {formatRating(rating)}
        <span className="sr-only"> out of 5</span>
      </span>
      <span className="text-muted-foreground">
        ({formatCount(count)} {count === 1 ? "review" : "reviews"})
      </span>
    </p>
  );
}

/** Five stars, `rating` of them filled, read as "Rated 4 out of 5". */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  return (
    <span role="img" aria-label={`Rated ${rating} out of 5`} className={`inline-flex gap-0.5 ${className ?? ""}`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star key={i} aria-hidden="true" className={i <= rating ? "size-4 fill-primary text-primary-strong" : "size-4 text-muted-foreground"} />
      ))}
    </span>
  );
}
