import type { ReactNode } from "react";
import { CardLink } from "#app/components/card-link.tsx";
import { CategoryBadges } from "#app/components/category-badges.tsx";
import { DiggerAvatar } from "#app/components/digger-avatar.tsx";
import { Rating } from "#app/components/rating.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { displayHandle } from "#core/digger-display.ts";

interface Props {
  handle: string;
  profession: string;
  imageUrl: string | null;
  rating: number;
  reviewCount: number;
  categories: string[];
  /** The list's name for the categories ("Categories", "Expertise"). */
  categoriesLabel: string;
  /** The profile's address: the whole card links there. None for an example. */
  href: string | null;
  /** The handle's heading level under the page's own headings. */
  headingLevel: 2 | 3;
  /** Shown after the handle (the verified mark). */
  nameBadge?: ReactNode;
  /** Details a page adds between the rating and the categories. */
  children?: ReactNode;
}

/**
 * A digger as a card, the same on Browse Talent and the landing page: photo or initials,
 * handle, profession, rating with review count, the page's details, then at most three
 * category badges and a "+N more" count, all by the rules of core/digger-display.ts.
 */
export function DiggerSummaryCard({ handle, profession, imageUrl, rating, reviewCount, categories, categoriesLabel, href, headingLevel, nameBadge, children }: Props) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const name = displayHandle(handle);
  return (
    <Card className="relative h-full gap-4 transition-shadow hover:shadow-md">
      <CardHeader className="flex items-center gap-4">
        <DiggerAvatar handle={handle} imageUrl={imageUrl} />
        <div className="min-w-0">
          <Heading className="flex items-center gap-1.5 text-lg font-semibold [overflow-wrap:anywhere]">
            {href ? <CardLink to={href}>{name}</CardLink> : name}
            {nameBadge}
          </Heading>
          <p className="text-sm text-muted-foreground">{profession}</p>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Rating rating={rating} count={reviewCount} />
        {children}
        <CategoryBadges names={categories} label={categoriesLabel} />
      </CardContent>
    </Card>
  );
}
