import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { RECORD_TITLE } from "#core/reply-guarantee.ts";

/**
 * 'About this client' on /gig/{id}: the client's record in lines, as the server wrote them
 * (core/reply-guarantee.ts `clientRecordLines`); nothing when there is no line to show.
 */
export function ClientRecordCard({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="client-record-title">
      <Card className="gap-3">
        <CardHeader>
          <h2 id="client-record-title" className="text-lg font-semibold">
            {RECORD_TITLE}
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
