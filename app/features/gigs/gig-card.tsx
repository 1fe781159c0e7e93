import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import type { GigSummary } from "#core/gig-types.ts";
import { budgetText, formatPrice } from "#core/money.ts";
import { timeAgo } from "#core/relative-time.ts";


/** A gig in a list: the whole card opens the gig. */
export function GigCard({ gig, now }: { gig: GigSummary; now: Date }) {
  return (
    <Card className="relative gap-3 transition-shadow hover:shadow-md">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <CardTitle className="text-lg">
            <Link to={`/gig/${gig.id}`} className="after:absolute after:inset-0 hover:underline">
              {gig.title}
            </Link>
          </CardTitle>
          <Badge variant="secondary">{gig.categoryName}</Badge>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="line-clamp-2 text-sm text-muted-foreground">{gig.description}</p>
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <div>
            <dt className="sr-only">Budget</dt>
            <dd className="font-medium">{budgetText(gig.budgetMinCents, gig.budgetMaxCents)}</dd>
          </div>
          <div>
            <dt className="sr-only">Location</dt>
            <dd>{gig.location}</dd>
          </div>
          <div>
            <dt className="sr-only">Timeline</dt>
            <dd>{gig.timeline}</dd>
          </div>
          <div>
            <dt className="sr-only">Lead price</dt>
            <dd>{`Lead: ${formatPrice(gig.leadPriceCents)}`}</dd>
          </div>
        </dl>
        <p className="text-xs text-muted-foreground">{`Posted ${timeAgo(gig.createdAt, now)}`}</p>
      </CardContent>
    </Card>
  );
}
