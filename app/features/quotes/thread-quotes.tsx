import { useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { formatDate } from "#core/dates.ts";
import { formatPrice } from "#core/money.ts";
import type { QuoteCard as Quote, ThreadQuoteState } from "#core/quote-views.ts";
import { expiredOn, QUOTE_MESSAGES, QUOTE_TYPE_LABELS } from "#core/quotes.ts";
import { QuoteDecision } from "./quote-decision.tsx";
import { blankQuote, QuoteForm, SEND_A_QUOTE, type QuoteFormValues } from "./quote-form.tsx";

/**
 * The digger's Send a Quote, as an action of the composer's '+' sheet (issue 47: a ComposerAction of app/features/messages/), while they may
 * quote (`state.canQuote`, from the whole thread and gig: none open, none accepted, never 'Not
 * chosen'); null otherwise. The server decides who may (server/conversations/quote-writing.ts).
 */
export function sendQuoteAction({ threadId, today, state }: { threadId: string; today: string; state: ThreadQuoteState }): { id: string; label: string; render: (close: () => void) => ReactNode } | null {
  if (!state.canQuote) return null;
  return {
    id: "quote",
    label: SEND_A_QUOTE,
    render: (close) => <QuoteForm threadId={threadId} today={today} initial={blankQuote(today)} onDone={close} />,
  };
}

/** The card's status line: 'Accepted', 'Not chosen', 'Declined' (with the reason), 'Withdrawn', 'Replaced by a newer quote', 'Expired {date}'. */
function statusText(quote: Quote): string | null {
  switch (quote.status) {
    case "accepted":
      return QUOTE_MESSAGES.accepted;
    case "not_chosen":
      return QUOTE_MESSAGES.notChosen;
    case "declined":
      return "Declined";
    case "withdrawn":
      return "Withdrawn";
    case "replaced":
      return QUOTE_MESSAGES.replaced;
    case "open":
      return quote.open ? null : expiredOn(formatDate(quote.validUntil));
  }
}

/**
 * A quote card where it was sent in the thread, with its current status: the digger's Revise and
 * Withdraw while it is open, also past its Valid until (until the client decides); the client's
 * Accept and Decline while it is open and not expired. `diggerHandle`: the client's accept question.
 */
export function QuoteCardView({ quote, threadId, role, diggerHandle, today }: { quote: Quote; threadId: string; role: "digger" | "client"; diggerHandle: string; today: string }) {
  const [revising, setRevising] = useState(false);
  const status = statusText(quote);
  const live = quote.status === "open" && quote.open;
  const faded = !live && quote.status !== "accepted";
  return (
    <article
      aria-label={`Quote: ${quote.priceText}`}
      data-testid="quote-card"
      className={cn("grid gap-2 rounded-lg border p-4 text-sm", role === "digger" ? "justify-self-end" : "justify-self-start", "w-full max-w-xl", faded && "opacity-70")}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="text-xs font-medium text-muted-foreground uppercase">{`Quote · ${QUOTE_TYPE_LABELS[quote.price.type]}`}</p>
          <p className="text-lg font-semibold">{quote.priceText}</p>
          {quote.price.type !== "fixed" ? (
            <p className="text-muted-foreground">{`${formatPrice(quote.comparableCents)}${quote.price.type === "estimate" ? ` ${QUOTE_MESSAGES.midpoint}` : " in total"}`}</p>
          ) : null}
        </div>
        {status ? <Badge variant={quote.status === "accepted" ? "default" : "outline"}>{status}</Badge> : null}
      </div>
      {quote.status === "declined" && quote.declineReason ? (
        <p className="[overflow-wrap:anywhere] whitespace-pre-wrap">{`Reason: ${quote.declineReason}`}</p>
      ) : null}
      <QuoteDetails quote={quote} />
      {quote.status === "open" && role === "digger" ? (
        revising ? (
          <div className="mt-2 border-t pt-3">
            <QuoteForm threadId={threadId} today={today} initial={formValues(quote, today)} quoteId={quote.id} onDone={() => setRevising(false)} />
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button type="button" size="sm" variant="outline" onClick={() => setRevising(true)}>
              Revise
            </Button>
            <WithdrawQuote threadId={threadId} quoteId={quote.id} />
          </div>
        )
      ) : null}
      {live && role === "client" ? <QuoteDecision threadId={threadId} quoteId={quote.id} handle={diggerHandle} priceText={quote.priceText} /> : null}
    </article>
  );
}

/** What is included, the line items, the start date and Valid until: the same on both sides. */
function QuoteDetails({ quote }: { quote: Pick<Quote, "included" | "lineItems" | "startDate" | "validUntil"> }) {
  return (
    <dl className="grid gap-2">
      <div>
        <dt className="font-medium">What is included</dt>
        <dd className="[overflow-wrap:anywhere] whitespace-pre-wrap">{quote.included}</dd>
      </div>
      {quote.lineItems.length > 0 ? (
        <div>
          <dt className="font-medium">Line items</dt>
          <dd>
            <ul className="grid gap-1">
              {quote.lineItems.map((item, n) => (
                <li key={n} className="flex justify-between gap-3">
                  <span className="[overflow-wrap:anywhere]">{item.description}</span>
                  <span className="tabular-nums">{formatPrice(item.amountCents)}</span>
                </li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-x-6 gap-y-1">
        {quote.startDate ? (
          <div>
            <dt className="inline font-medium">Start date: </dt>
            <dd className="inline">{formatDate(quote.startDate)}</dd>
          </div>
        ) : null}
        <div>
          <dt className="inline font-medium">Valid until: </dt>
          <dd className="inline">{formatDate(quote.validUntil)}</dd>
        </div>
      </div>
    </dl>
  );
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The quote as its Revise form starts; a Valid until already past starts at the usual default instead. */
function formValues(quote: Quote, today: string): QuoteFormValues {
  const price = quote.price;
  return {
    type: price.type,
    amount: price.type === "fixed" ? dollars(price.amountCents) : "",
    rate: price.type === "hourly" ? dollars(price.rateCents) : "",
    hours: price.type === "hourly" ? String(price.hours) : "",
    low: price.type === "estimate" ? dollars(price.lowCents) : "",
    high: price.type === "estimate" ? dollars(price.highCents) : "",
    included: quote.included,
    lineItems: quote.lineItems.map((item) => ({ description: item.description, amount: dollars(item.amountCents) })),
    startDate: quote.startDate ?? "",
    validUntil: quote.validUntil < today ? blankQuote(today).validUntil : quote.validUntil,
  };
}

function WithdrawQuote({ threadId, quoteId }: { threadId: string; quoteId: string }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  return (
    <fetcher.Form method="post" action={`/messages/${threadId}`}>
      <input type="hidden" name="intent" value="withdraw-quote" />
      <input type="hidden" name="quoteId" value={quoteId} />
      <Button type="submit" size="sm" variant="ghost" disabled={fetcher.state !== "idle"}>
        Withdraw
      </Button>
    </fetcher.Form>
  );
}
