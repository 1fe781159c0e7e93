import { BadgeCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { Rating } from "#app/components/rating.tsx";
import { Alert, AlertDescription, AlertTitle } from "#app/components/ui/alert.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { CREDENTIALS } from "#core/credentials.ts";
import { formatDate } from "#core/dates.ts";
import { GIG_FILLED_TEXTS } from "#core/gig-texts.ts";
import { formatPrice } from "#core/money.ts";
import { COMPARE_TEXTS, replyDelayText, type ComparedQuote, type QuoteComparison } from "#core/quote-views.ts";
import { expiredOn, QUOTE_MESSAGES } from "#core/quotes.ts";
import { QuoteDecision } from "./quote-decision.tsx";

type Row = { label: string; value: (quote: ComparedQuote, comparison: QuoteComparison) => ReactNode };

const empty = <span className="text-muted-foreground">{COMPARE_TEXTS.empty}</span>;

/** The rows, in the order both layouts show them. */
const ROWS: Row[] = [
  {
    label: COMPARE_TEXTS.rows.rating,
    value: (q) => <Rating rating={q.digger.averageRating} count={q.digger.totalRatings} />,
  },
  {
    label: COMPARE_TEXTS.rows.verified,
    value: (q) =>
      q.digger.verified || q.digger.verifiedCredentials.length > 0 ? (
        <ul className="grid gap-1">
          {q.digger.verified ? (
            <li className="flex items-center gap-1">
              <BadgeCheck aria-hidden="true" className="size-4 text-primary-strong" />
              Verified
            </li>
          ) : null}
          {q.digger.verifiedCredentials.map((credential) => (
            <li key={credential}>{`${CREDENTIALS[credential]} (checked by Digs & Gigs)`}</li>
          ))}
        </ul>
      ) : (
        <span className="text-muted-foreground">{COMPARE_TEXTS.notVerified}</span>
      ),
  },
  { label: COMPARE_TEXTS.rows.hires, value: (q) => String(q.digger.hires) },
  {
    label: COMPARE_TEXTS.rows.price,
    value: (q, c) => (
      <div className="grid gap-1">
        <span className="font-semibold">{q.priceText}</span>
        {c.lowestId === q.id ? <Badge className="w-fit">{QUOTE_MESSAGES.lowestPrice}</Badge> : null}
      </div>
    ),
  },
  {
    label: COMPARE_TEXTS.rows.comparable,
    value: (q) => `${formatPrice(q.comparableCents)}${q.price.type === "estimate" ? ` (${QUOTE_MESSAGES.midpoint})` : ""}`,
  },
  { label: COMPARE_TEXTS.rows.included, value: (q) => <p className="[overflow-wrap:anywhere] whitespace-pre-wrap">{q.included}</p> },
  {
    label: COMPARE_TEXTS.rows.lineItems,
    value: (q) =>
      q.lineItems.length === 0 ? (
        empty
      ) : (
        <ul className="grid gap-1">
          {q.lineItems.map((item, n) => (
            <li key={n} className="flex justify-between gap-3">
              <span className="[overflow-wrap:anywhere]">{item.description}</span>
              <span className="tabular-nums">{formatPrice(item.amountCents)}</span>
            </li>
          ))}
        </ul>
      ),
  },
  { label: COMPARE_TEXTS.rows.startDate, value: (q) => (q.startDate ? formatDate(q.startDate) : empty) },
  {
    label: COMPARE_TEXTS.rows.validUntil,
    value: (q) => (q.expired ? <span className="font-medium">{expiredOn(formatDate(q.validUntil))}</span> : formatDate(q.validUntil)),
  },
  {
    label: COMPARE_TEXTS.rows.reply,
    value: (q, c) => (
      <div className="grid gap-1">
        <span>{q.answeredAfterMs === null ? COMPARE_TEXTS.empty : replyDelayText(q.answeredAfterMs)}</span>
        {q.digger.responseTime ? <span className="text-muted-foreground">{q.digger.responseTime}</span> : null}
        {c.fastestId === q.id ? <Badge className="w-fit">{QUOTE_MESSAGES.fastestReply}</Badge> : null}
      </div>
    ),
  },
];

function DiggerName({ quote }: { quote: ComparedQuote }) {
  return (
    <Link to={`/digger/${quote.digger.id}`} className="font-semibold hover:underline [overflow-wrap:anywhere]">
      {quote.digger.handle}
    </Link>
  );
}

function Decision({ quote }: { quote: ComparedQuote }) {
  if (quote.expired) return <p className="text-sm text-muted-foreground">{expiredOn(formatDate(quote.validUntil))}</p>;
  return <QuoteDecision threadId={quote.threadId} quoteId={quote.id} handle={quote.digger.handle} priceText={quote.priceText} />;
}

/**
 * Compare Quotes: one column per open quote (a table from medium screens up), one card per quote
 * with the same rows in the same order on a phone. Expired quotes are greyed, without Accept.
 * Once a quote is accepted, the page offers to close the gig as filled (My Gigs' own action).
 */
export function QuoteComparisonView({ comparison }: { comparison: QuoteComparison }) {
  const { quotes } = comparison;
  return (
    <div className="grid gap-6">
      {comparison.accepted ? <AcceptedNotice comparison={comparison} /> : null}
      {quotes.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">{COMPARE_TEXTS.none}</p>
      ) : (
        <>
          <div className="hidden overflow-x-auto md:block">
            <table className="w-full table-fixed border-collapse text-sm" aria-label="Quotes side by side">
              <thead>
                <tr className="border-b">
                  <th scope="col" className="w-44 p-3 text-left font-medium text-muted-foreground">
                    {COMPARE_TEXTS.rows.digger}
                  </th>
                  {quotes.map((quote) => (
                    <th key={quote.id} scope="col" className={cn("min-w-48 p-3 text-left align-top", quote.expired && "opacity-60")}>
                      <DiggerName quote={quote} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {ROWS.map((row) => (
                  <tr key={row.label} className="border-b">
                    <th scope="row" className="p-3 text-left align-top font-medium">
                      {row.label}
                    </th>
                    {quotes.map((quote) => (
                      <td key={quote.id} className={cn("p-3 align-top", quote.expired && "text-muted-foreground opacity-60")}>
                        {row.value(quote, comparison)}
                      </td>
                    ))}
                  </tr>
                ))}
                <tr>
                  <td />
                  {quotes.map((quote) => (
                    <td key={quote.id} className="p-3 align-top">
                      <Decision quote={quote} />
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          </div>
          <ul className="grid gap-4 md:hidden" aria-label="Quotes">
            {quotes.map((quote) => (
              <li key={quote.id} className={cn("rounded-lg border p-4 text-sm", quote.expired && "text-muted-foreground opacity-60")}>
                <h2 className="mb-3 text-base">
                  <DiggerName quote={quote} />
                </h2>
                <dl className="grid gap-3">
                  {ROWS.map((row) => (
                    <div key={row.label} className="grid gap-1">
                      <dt className="font-medium">{row.label}</dt>
                      <dd>{row.value(quote, comparison)}</dd>
                    </div>
                  ))}
                </dl>
                <div className="mt-4">
                  <Decision quote={quote} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** After an accept: the hire is recorded; closing the gig as filled is the client's next step (issue 19's flow). */
function AcceptedNotice({ comparison }: { comparison: QuoteComparison }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  const accepted = comparison.accepted!;
  const open = comparison.gig.status === "open" && !(fetcher.state === "idle" && fetcher.data?.success);
  return (
    <Alert role="status">
      <AlertTitle>{`You accepted ${accepted.handle}'s quote of ${accepted.priceText}.`}</AlertTitle>
      <AlertDescription>
        {open ? (
          <div className="grid gap-2">
            <p>{`${GIG_FILLED_TEXTS.title} Close it as filled so no one else buys its lead.`}</p>
            <fetcher.Form method="post" action="/my-gigs" className="flex flex-wrap gap-2">
              <input type="hidden" name="intent" value="set-status" />
              <input type="hidden" name="gigId" value={comparison.gig.id} />
              <input type="hidden" name="status" value="closed" />
              <input type="hidden" name="filled" value="yes" />
              <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
                Close gig as filled
              </Button>
              <Button asChild size="sm" variant="outline">
                <Link to="/my-gigs">Not now</Link>
              </Button>
            </fetcher.Form>
          </div>
        ) : (
          <p>{comparison.gig.filled ? GIG_FILLED_TEXTS.closedFilled : "This gig is closed."}</p>
        )}
      </AlertDescription>
    </Alert>
  );
}
