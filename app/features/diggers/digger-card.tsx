import { BadgeCheck, Briefcase, CalendarCheck, Clock, MapPin } from "#app/components/icons.tsx";
import { DiggerSummaryCard } from "#app/components/digger-summary-card.tsx";
import { hourlyRateText } from "#core/digger-display.ts";
import type { DiggerCardData } from "#core/digger-types.ts";

/** A Browse Talent card: the shared digger card with location, experience, rate, response time and kept visits. */
export function DiggerCard({ digger }: { digger: DiggerCardData }) {
  const rate = hourlyRateText(digger.hourlyRateMinCents, digger.hourlyRateMaxCents);
  return (
    <DiggerSummaryCard
      handle={digger.handle}
      profession={digger.profession}
      imageUrl={digger.profileImageUrl}
      rating={digger.averageRating}
      reviewCount={digger.totalRatings}
      categories={digger.categories}
      categoriesLabel="Categories"
      href={`/digger/${digger.id}`}
      headingLevel={2}
      nameBadge={digger.verified ? <BadgeCheck aria-label="Verified" className="size-4 shrink-0 text-primary-strong" /> : null}
    >
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
        {digger.responseTime ? (
          <li className="flex items-center gap-1.5">
            <Clock aria-hidden="true" className="size-4" />
            {digger.responseTime}
          </li>
        ) : null}
        {digger.keptVisits ? (
          <li className="flex items-center gap-1.5">
            <CalendarCheck aria-hidden="true" className="size-4" />
            {digger.keptVisits}
          </li>
        ) : null}
      </ul>
    </DiggerSummaryCard>
  );
}
