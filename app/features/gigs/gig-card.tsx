import { Star } from "#app/components/icons.tsx";
import { CardLink } from "#app/components/card-link.tsx";
import { CategoryBadge } from "#app/components/category-badges.tsx";
import { FactList } from "#app/components/fact-list.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import type { GigSummary } from "#core/gig-types.ts";
import { spotsText } from "#core/lead-spots.ts";
import { budgetText, formatPrice } from "#core/money.ts";
import { PhoneStatus } from "#app/components/phone-status.tsx";

/** A gig in a list: the whole card opens the gig. */
export function GigCard({ gig }: { gig: GigSummary }) {
  return (
    <Card className="relative gap-3 transition-shadow hover:shadow-md">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <CardTitle className="text-lg">
            <CardLink to={`/gig/${gig.id}`}>{gig.title}</CardLink>
          </CardTitle>
          <CategoryBadge name={gig.categoryName} />
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="line-clamp-2 text-sm text-muted-foreground">{gig.description}</p>
        <FactList
          className="flex flex-wrap gap-x-6 gap-y-1"
          facts={[
            { label: "Budget", value: budgetText(gig.budgetMinCents, gig.budgetMaxCents), main: true },
            { label: "Location", value: gig.location },
            { label: "Timeline", value: gig.timeline },
            { label: "Lead price", value: `Lead: ${formatPrice(gig.leadPriceCents)}` },
          ]}
        />
        {gig.clientRecord || gig.clientRating || gig.phoneStatus ? (
          // Before buying: what the client's record, diggers' reviews and phone say (issues 48, 49, 51), never the number.
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <PhoneStatus status={gig.phoneStatus} />
            {gig.clientRecord ? <p className="text-xs">{gig.clientRecord}</p> : null}
            {gig.clientRating ? (
              <p className="flex items-center gap-1 text-xs">
                <Star aria-hidden="true" className="size-3.5 fill-primary text-primary-strong" />
                <span className="sr-only">Client rated </span>
                {gig.clientRating}
              </p>
            ) : null}
          </div>
        ) : null}
        <p className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <span>{gig.posted}</span>
          <span>{spotsText(gig.spotsTaken, gig.maxDiggers)}</span>
        </p>
      </CardContent>
    </Card>
  );
}
