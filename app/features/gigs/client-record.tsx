import { Star } from "#app/components/icons.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { RECORD_TITLE } from "#core/reply-guarantee.ts";

/**
 * 'About this client' on /gig/{id}: the client's record in lines, as the server wrote them
 * (core/reply-guarantee.ts `clientRecordLines`, with the diggers' reviews of the client, issue
 * 51: `rating`, its '4.8 from 3 diggers' line, gets a star); nothing when there is no line to
 * show. /account shows the client their own under `title`, with `hint`.
 */
export function ClientRecordCard({ lines, rating = null, title = RECORD_TITLE, hint }: { lines: string[]; rating?: string | null; title?: string; hint?: string }) {
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="client-record-title">
      <Card className="gap-3">
        <CardHeader>
          <h2 id="client-record-title" className="text-lg font-semibold">
            {title}
          </h2>
          {hint ? <p className="text-sm text-muted-foreground">{hint}</p> : null}
        </CardHeader>
        <CardContent>
          <ul className="grid gap-1 text-sm">
            {lines.map((line) => (
              <li key={line} className={line === rating ? "flex items-center gap-1.5 font-medium" : undefined}>
                {line === rating ? (
                  <>
                    <Star aria-hidden="true" className="size-4 fill-primary text-primary-strong" />
                    <span className="sr-only">Rated </span>
                  </>
                ) : null}
                {line}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </section>
  );
}
