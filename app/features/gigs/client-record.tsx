import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { RECORD_TITLE } from "#core/reply-guarantee.ts";

/**
 * 'About this client' on /gig/{id}: the client's record in lines, as the server wrote them
 * (core/reply-guarantee.ts `clientRecordLines`, with the diggers' reviews of the client, issue
 * 51); nothing when there is no line to show. /account shows the client their own under `title`.
 */
export function ClientRecordCard({ lines, title = RECORD_TITLE }: { lines: string[]; title?: string }) {
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="client-record-title">
      <Card className="gap-3">
        <CardHeader>
          <h2 id="client-record-title" className="text-lg font-semibold">
            {title}
          </h2>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-1 text-sm">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </section>
  );
}
