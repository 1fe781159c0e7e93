import { Link } from "#app/components/link.tsx";
import type { EvidenceTexts } from "#core/reply-guarantee.ts";
import { FAKE_REQUEST_TEXTS } from "#core/reply-guarantee.ts";

/** What a purchase's thread shows (issue 48), beside a refund decision; nothing without a thread. */
export function EvidenceList({ evidence }: { evidence: EvidenceTexts | null }) {
  if (!evidence) return null;
  return (
    <ul className="grid gap-0.5 rounded-md bg-muted/40 p-2" aria-label="What the thread shows">
      <li>{evidence.opened}</li>
      <li>{evidence.messages}</li>
      <li>{evidence.firstMessage}</li>
    </ul>
  );
}

/** A fake-request report's client's other gigs: title (to the console's Gigs search), date and status. */
export function OtherGigs({ gigs }: { gigs: Array<{ id: string; title: string; statusText: string; createdAtText: string }> }) {
  return (
    <div className="grid gap-1">
      <p className="font-medium">{FAKE_REQUEST_TEXTS.otherGigsTitle}</p>
      {gigs.length === 0 ? (
        <p className="text-muted-foreground">{FAKE_REQUEST_TEXTS.noOtherGigs}</p>
      ) : (
        <ul className="grid gap-0.5" aria-label={FAKE_REQUEST_TEXTS.otherGigsTitle}>
          {gigs.map((gig) => (
            <li key={gig.id} className="[overflow-wrap:anywhere]">
              <Link to={`/ops/gigs?q=${encodeURIComponent(gig.title)}`} className="underline">
                {gig.title}
              </Link>
              <span className="text-muted-foreground">{` · ${gig.createdAtText} · ${gig.statusText}`}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
