/**
 * The landing page's featured digger and recent gig cards, built from the same pieces and
 * display rules as Browse Talent and Browse Gigs (app/components/, core/digger-display.ts).
 * A card with an `href` is real data and links to its page; one without is a sample shown
 * while the marketplace is empty.
 */
import { Clock, Users } from "#app/components/icons.tsx";
import { CardLink } from "#app/components/card-link.tsx";
import { CategoryBadge } from "#app/components/category-badges.tsx";
import { DiggerSummaryCard } from "#app/components/digger-summary-card.tsx";
import { FactList } from "#app/components/fact-list.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { budgetText, formatCount } from "#core/money.ts";

/** The spec's featured digger card: name (the handle), profession, expertise, rating, reviews, image. */
export interface ShowcaseDigger {
  key: string;
  name: string;
  profession: string;
  expertise: string[];
  rating: number;
  reviewCount: number;
  imageUrl: string | null;
  href: string | null;
}

/** The spec's recent gig card: title, description, budget, timeline, category, purchases (as everywhere else). */
export interface ShowcaseGig {
  key: string;
  title: string;
  description: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  timeline: string;
  category: string;
  purchases: number;
  href: string | null;
}

export function FeaturedDiggerCard({ digger }: { digger: ShowcaseDigger }) {
  return (
    <DiggerSummaryCard
      handle={digger.name}
      profession={digger.profession}
      imageUrl={digger.imageUrl}
      rating={digger.rating}
      reviewCount={digger.reviewCount}
      categories={digger.expertise}
      categoriesLabel="Expertise"
      href={digger.href}
      headingLevel={3}
    />
  );
}

export function RecentGigCard({ gig }: { gig: ShowcaseGig }) {
  return (
    <Card className="relative h-full gap-4 transition-shadow hover:shadow-md">
      <CardHeader className="flex flex-col gap-2">
        <CategoryBadge name={gig.category} />
        <h3 className="text-lg leading-snug font-semibold [overflow-wrap:anywhere]">
          {gig.href ? <CardLink to={gig.href}>{gig.title}</CardLink> : gig.title}
        </h3>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <p className="line-clamp-2 text-sm text-muted-foreground">{gig.description}</p>
        <FactList
          className="mt-auto grid gap-1.5"
          facts={[
            { label: "Budget", value: budgetText(gig.budgetMinCents, gig.budgetMaxCents), main: true },
            { label: "Timeline", value: gig.timeline, icon: Clock },
            { label: "Purchases", value: `${formatCount(gig.purchases)} ${gig.purchases === 1 ? "purchase" : "purchases"}`, icon: Users },
          ]}
        />
      </CardContent>
    </Card>
  );
}
