import { CalendarClock } from "#app/components/icons.tsx";
import { Link } from "#app/components/link.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { cn } from "#app/lib/cn.ts";
import { VISIT_TEXTS, type VisitListItem } from "#core/visits.ts";

/**
 * /visits' list: the upcoming visits, then the past ones, each part under its heading; each
 * visit its time (the server's text, in the reader's zone), the gig, the other party, what
 * stands (cancelled, 'Late cancellation', 'Client confirmed', the marks) and a link to its
 * conversation. The parts arrive in order, page after page: each shows what has loaded of it.
 */
export function VisitList({ visits }: { visits: VisitListItem[] }) {
  const upcoming = visits.filter((visit) => visit.part === "upcoming");
  const past = visits.filter((visit) => visit.part === "past");
  return (
    <div className="grid gap-8">
      {upcoming.length > 0 ? <VisitPart id="visits-upcoming" title={VISIT_TEXTS.upcoming} visits={upcoming} /> : null}
      {past.length > 0 ? <VisitPart id="visits-past" title={VISIT_TEXTS.past} visits={past} /> : null}
    </div>
  );
}

function VisitPart({ id, title, visits }: { id: string; title: string; visits: VisitListItem[] }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      <ul className="divide-y rounded-lg border" aria-labelledby={id}>
        {visits.map((visit) => (
          <li key={visit.id}>
            <VisitEntry visit={visit} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One visit: the whole entry opens its conversation, as an inbox row does. */
function VisitEntry({ visit }: { visit: VisitListItem }) {
  const cancelled = visit.cancelled !== null;
  return (
    <Link to={`/messages/${visit.threadId}`} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 p-4 hover:bg-muted" data-testid="visit-entry">
      <CalendarClock aria-hidden="true" className={cn("mt-0.5 size-5", cancelled ? "text-muted-foreground" : "text-primary-strong")} />
      <div className="grid min-w-0 gap-1">
        <time dateTime={visit.startsAt} className={cn("font-medium [overflow-wrap:anywhere]", cancelled && "text-muted-foreground line-through")}>
          {visit.line}
        </time>
        <span className="text-sm [overflow-wrap:anywhere]">{visit.gigTitle}</span>
        <span className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{visit.withLine}</span>
        {visit.cancelled ? <span className="text-sm text-destructive [overflow-wrap:anywhere]">{visit.cancelled}</span> : null}
        {visit.states.length > 0 ? (
          <span className="flex flex-wrap gap-1.5">
            {visit.states.map((state) => (
              <Badge key={state} variant={state === VISIT_TEXTS.lateCancellation || state === VISIT_TEXTS.diggerAbsent || state === VISIT_TEXTS.clientAbsent ? "destructive" : "secondary"}>
                {state}
              </Badge>
            ))}
          </span>
        ) : null}
      </div>
    </Link>
  );
}
