import { BadgeCheck, Briefcase, MapPin } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { cardBadges, displayHandle, hourlyRateText } from "#core/digger-display.ts";
import type { DiggerCardData } from "#core/digger-types.ts";
import { DiggerAvatar } from "./digger-avatar.tsx";
import { Rating } from "./rating.tsx";

export function DiggerCard({ digger }: { digger: DiggerCardData }) {
  const { shown, more } = cardBadges(digger.categories);
  const rate = hourlyRateText(digger.hourlyRateMinCents, digger.hourlyRateMaxCents);
  return (
    <Card className="relative h-full gap-4 transition-shadow hover:shadow-md">
      <CardHeader className="flex items-center gap-4">
        <DiggerAvatar handle={digger.handle} imageUrl={digger.profileImageUrl} />
        <div className="min-w-0">
          <h2 className="flex items-center gap-1.5 text-lg font-semibold [overflow-wrap:anywhere]">
            <Link to={`/digger/${digger.id}`} className="underline-offset-4 after:absolute after:inset-0 hover:underline">
              {displayHandle(digger.handle)}
            </Link>
            {digger.verified ? <BadgeCheck aria-label="Verified" className="size-4 shrink-0 text-primary-strong" /> : null}
          </h2>
          <p className="text-sm text-muted-foreground">{digger.profession}</p>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Rating rating={digger.averageRating} count={digger.totalRatings} />
        <ul className="grid gap-1 text-sm text-muted-foreground">
          <li className="flex items-center gap-1.5">
            <MapPin aria-hidden="true" className="size-4" />
            {digger.location}
          </li>
          {digger.yearsExperience !== null ? (
            <li className="flex items-center gap-1.5">
              <Briefcase aria-hidden="true" className="size-4" />
              {digger.yearsExperience} {digger.yearsExperience === 1 ? "year" : "years"} experience
            </li>
          ) : null}
          {rate ? <li className="font-medium text-foreground">{rate}</li> : null}
        </ul>
        {shown.length > 0 ? (
          <ul aria-label="Categories" className="flex flex-wrap items-center gap-1.5">
            {shown.map((name) => (
              <li key={name}>
                <Badge variant="secondary" className="whitespace-normal">
                  {name}
                </Badge>
              </li>
            ))}
            {more > 0 ? (
              <li>
                <Badge variant="outline">+{more}</Badge>
              </li>
            ) : null}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
