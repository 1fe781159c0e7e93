import { BadgeCheck } from "#app/components/icons.tsx";
import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Rating } from "#app/components/rating.tsx";
import { Alert, AlertDescription, AlertTitle } from "#app/components/ui/alert.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { CREDENTIALS } from "#core/credentials.ts";
import { formatDate } from "#core/dates.ts";
import { GIG_FILLED_TEXTS, GIG_HIRED_TEXTS } from "#core/gig-texts.ts";
import { formatPrice } from "#core/money.ts";
import { COMPARE_TEXTS, replyDelayText, type ComparedQuote, type QuoteComparison } from "#core/quote-views.ts";
import { expiredOn, QUOTE_MESSAGES, QUOTE_TYPE_LABELS } from "#core/quotes.ts";
import { QuoteDecision } from "./quote-decision.tsx";

type Row = { label: string; value: (quote: ComparedQuote, comparison: QuoteComparison) => ReactNode };

const empty = <span className="text-muted-foreground">{COMPARE_TEXTS.empty}</span>;

/** The rows, in the order both layouts show them. */
/** A mark ('Lowest price', 'Fastest reply') on the quotes it names; said as a tie when it names more than one. */
function Mark({ ids, id, text }: { ids: string[]; id: string; text: string }) {
  if (!ids.includes(id)) return null;
  return <Badge className="w-fit">{ids.length > 1 ? COMPARE_TEXTS.tie(text) : text}</Badge>;
}

const ROWS: Row[] = [
  { label: COMPARE_TEXTS.rows.type, value: (q) => QUOTE_TYPE_LABELS[q.price.type] },
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
        <Mark ids={c.lowestIds} id={q.id} text={QUOTE_MESSAGES.lowestPrice} />
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
        <Mark ids={c.fastestIds} id={q.id} text={QUOTE_MESSAGES.fastestReply} />
      </div>
    ),
  },
];

/** The digger's handle to their profile, and the way to the conversation with them. */
function DiggerName({ quote }: { quote: ComparedQuote }) {
  return (
    <div className="grid justify-items-start gap-1">
      <Link to={`/digger/${quote.digger.id}`} className="inline-flex min-h-6 items-center font-semibold underline-offset-4 hover:underline [overflow-wrap:anywhere]">
        {quote.digger.handle}
      </Link>
      <Link to={`/messages/${quote.threadId}`} className="inline-flex min-h-6 items-center text-sm font-normal text-primary-strong underline underline-offset-4">
        {COMPARE_TEXTS.thread}
        <span className="sr-only">{` with ${quote.digger.handle}`}</span>
      </Link>
    </div>
  );
}

function Decision({ quote }: { quote: ComparedQuote }) {
  if (quote.expired) return <p className="text-sm text-muted-foreground">{expiredOn(formatDate(quote.validUntil))}</p>;
  return <QuoteDecision threadId={quote.threadId} quoteId={quote.id} handle={quote.digger.handle} priceText={quote.priceText} />;
}

/**
 * Compare Quotes: one column per open quote, the same rows in the same order, on a phone as on
 * a desktop (issue 47): the table scrolls sideways under its first column, which stays. Expired
 * quotes are greyed, without Accept. Once a quote is accepted, the page offers what comes next.
 */
export function QuoteComparisonView({ comparison }: { comparison: QuoteComparison }) {
  const { quotes } = comparison;
  // The first column stays while the quotes scroll under it (its right edge drawn as a shadow: a
  // collapsed border does not move with a sticky cell).
  const sticky = "sticky left-0 z-10 w-32 bg-background p-3 pl-4 text-left align-top font-medium shadow-[inset_-1px_0_0_var(--color-border)] sm:w-44 sm:pl-3 md:shadow-none";
  return (
    <div className="grid gap-6">
      {comparison.accepted ? <AcceptedNotice comparison={comparison} /> : null}
      {quotes.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">{COMPARE_TEXTS.none}</p>
      ) : (
        // Focusable, so a keyboard scrolls it sideways too.
        <div className="-mx-4 overflow-x-auto sm:mx-0" tabIndex={0} role="region" aria-label="Quotes, scroll sideways for more">
          <table className="w-full min-w-max border-collapse text-sm md:min-w-0 md:table-fixed" aria-label="Quotes side by side">
            <thead>
              <tr className="border-b">
                <th scope="col" className={cn(sticky, "text-muted-foreground")}>
                  {COMPARE_TEXTS.rows.digger}
                </th>
                {quotes.map((quote) => (
                  <th key={quote.id} scope="col" className={cn("w-56 min-w-56 p-3 text-left align-top md:w-auto md:min-w-48", quote.expired && "opacity-60")}>
                    <DiggerName quote={quote} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ROWS.map((row) => (
                <tr key={row.label} className="border-b">
                  <th scope="row" className={sticky}>
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
                <td className={sticky} />
                {quotes.map((quote) => (
                  <td key={quote.id} className="p-3 align-top">
                    <Decision quote={quote} />
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * After an accept (issue 47), on Compare Quotes and in the accepted quote's thread: the hire is recorded and takes the gig off sale; the client's next
 * step: close it as filled, keep it open for more diggers (a job that needs several trades: the
 * `keep-open` intent of My Gigs puts it back on sale), or not now (it stays off sale).
 */
export function AcceptedNotice({ comparison }: { comparison: { accepted: QuoteComparison["accepted"]; gig: Pick<QuoteComparison["gig"], "id" | "status" | "filled" | "openForMore"> } }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  const accepted = comparison.accepted!;
  const answered = fetcher.state === "idle" && Boolean(fetcher.data?.success);
  // Answered already: kept open for more diggers (now or on an earlier visit), or closed.
  const open = comparison.gig.status === "open" && !comparison.gig.openForMore && !answered;
  return (
    <Alert role="status">
      <AlertTitle>{`You accepted ${accepted.handle}'s quote of ${accepted.priceText}.`}</AlertTitle>
      <AlertDescription>
        {open ? (
          <div className="grid gap-2">
            <p>{`${GIG_FILLED_TEXTS.title} Close it as filled, or keep it open if the job needs more diggers.`}</p>
            <fetcher.Form method="post" action="/my-gigs" className="flex flex-wrap gap-2">
              <input type="hidden" name="gigId" value={comparison.gig.id} />
              <input type="hidden" name="status" value="closed" />
              <input type="hidden" name="filled" value="yes" />
              <Button type="submit" name="intent" value="set-status" size="sm" disabled={fetcher.state !== "idle"}>
                Close gig as filled
              </Button>
              <Button type="submit" name="intent" value="keep-open" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
                Keep it open for more diggers
              </Button>
              <Button asChild size="sm" variant="ghost">
                <Link to="/my-gigs">Not now</Link>
              </Button>
            </fetcher.Form>
          </div>
        ) : (
          <p>
            {comparison.gig.filled
              ? GIG_FILLED_TEXTS.closedFilled
              : comparison.gig.status !== "open"
                ? "This gig is closed."
                : (fetcher.data?.success ?? GIG_HIRED_TEXTS.keptOpen)}
          </p>
        )}
      </AlertDescription>
    </Alert>
  );
}
