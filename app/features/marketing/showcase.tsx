/**
 * The landing page's featured digger and recent gig cards. A card with an `href` is real
 * data and links to its page; one without is a sample shown while the marketplace is empty.
 */
import { Clock, Star, Users } from "lucide-react";
import { Link } from "react-router";
import { Avatar, AvatarFallback, AvatarImage } from "#app/components/ui/avatar.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { budgetText } from "#core/money.ts";

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

/** The spec's recent gig card: title, description, budget, timeline, category, bids. */
export interface ShowcaseGig {
  key: string;
  title: string;
  description: string;
  budgetMinCents: number | null;
  budgetMaxCents: number | null;
  timeline: string;
  category: string;
  bids: number;
  href: string | null;
}

/** Cards show at most this many category badges (spec section 9). */
const MAX_BADGES = 3;

/** A link whose click area covers its whole card (the card must be `relative`). */
function CardLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="underline-offset-4 after:absolute after:inset-0 hover:underline">
      {children}
    </Link>
  );
}

function initials(name: string): string {
  const parts = name.split(/[\s_.-]+/).filter(Boolean);
  return parts
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase() ?? "")
    .join("");
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function DiggerCard({ digger }: { digger: ShowcaseDigger }) {
  const shown = digger.expertise.slice(0, MAX_BADGES);
  const more = digger.expertise.length - shown.length;
  return (
    <Card className="relative h-full gap-4 transition-shadow hover:shadow-md">
      <CardHeader className="flex items-center gap-4">
        <Avatar className="size-14">
          {digger.imageUrl ? <AvatarImage src={digger.imageUrl} alt={`Profile photo of ${digger.name}`} /> : null}
          <AvatarFallback aria-hidden="true" className="bg-primary/15 text-base font-semibold text-foreground">
            {initials(digger.name)}
          </AvatarFallback>
        </Avatar>
        <div className="min-w-0">
          <h3 className="text-lg font-semibold [overflow-wrap:anywhere]">
            {digger.href ? <CardLink to={digger.href}>{digger.name}</CardLink> : digger.name}
          </h3>
          <p className="text-sm text-muted-foreground">{digger.profession}</p>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="flex items-center gap-1.5 text-sm">
          <Star aria-hidden="true" className="size-4 fill-primary text-primary-strong" />
          {digger.reviewCount > 0 ? (
            <>
              <span className="font-semibold">
                <span className="sr-only">Rated </span>
                {digger.rating.toFixed(1)}
                <span className="sr-only"> out of 5</span>
              </span>
              <span className="text-muted-foreground">({plural(digger.reviewCount, "review", "reviews")})</span>
            </>
          ) : (
            <span className="text-muted-foreground">No reviews yet</span>
          )}
        </p>
        {shown.length > 0 ? (
          <ul aria-label="Expertise" className="flex flex-wrap items-center gap-1.5">
            {shown.map((name) => (
              <li key={name}>
                <Badge variant="secondary" className="whitespace-normal">
                  {name}
                </Badge>
              </li>
            ))}
            {more > 0 ? <li className="text-xs text-muted-foreground">+{more} more</li> : null}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}

export function GigCard({ gig }: { gig: ShowcaseGig }) {
  return (
    <Card className="relative h-full gap-4 transition-shadow hover:shadow-md">
      <CardHeader className="flex flex-col gap-2">
        <Badge variant="outline" className="whitespace-normal">
          <span className="sr-only">Category: </span>
          {gig.category}
        </Badge>
        <h3 className="text-lg leading-snug font-semibold [overflow-wrap:anywhere]">
          {gig.href ? <CardLink to={gig.href}>{gig.title}</CardLink> : gig.title}
        </h3>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <p className="line-clamp-2 text-sm text-muted-foreground">{gig.description}</p>
        <dl className="mt-auto grid gap-1.5 text-sm">
          <div>
            <dt className="sr-only">Budget</dt>
            <dd className="font-semibold">{budgetText(gig.budgetMinCents, gig.budgetMaxCents)}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt>
              <Clock aria-hidden="true" className="size-4 text-muted-foreground" />
              <span className="sr-only">Timeline</span>
            </dt>
            <dd>{gig.timeline}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt>
              <Users aria-hidden="true" className="size-4 text-muted-foreground" />
              <span className="sr-only">Bids</span>
            </dt>
            <dd>{plural(gig.bids, "bid", "bids")}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
