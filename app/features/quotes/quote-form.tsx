import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import { addDays } from "#core/dates.ts";
import { QUOTE_INCLUDED_MAX, QUOTE_LINE_ITEMS_MAX, QUOTE_TYPE_LABELS, QUOTE_TYPES, QUOTE_VALID_DAYS, quoteSchema, type QuoteType } from "#core/quotes.ts";

export const SEND_A_QUOTE = "Send a Quote";

type Answer = { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined;

/** What the form starts from: blank for a new quote, the quote's own values for Revise. */
export interface QuoteFormValues {
  type: QuoteType;
  amount: string;
  rate: string;
  hours: string;
  low: string;
  high: string;
  included: string;
  lineItems: Array<{ description: string; amount: string }>;
  startDate: string;
  validUntil: string;
}

export function blankQuote(today: string): QuoteFormValues {
  return { type: "fixed", amount: "", rate: "", hours: "", low: "", high: "", included: "", lineItems: [], startDate: "", validUntil: addDays(today, QUOTE_VALID_DAYS) };
}

/** The form's fields as core/quotes.ts's schema reads them (as the server's quoteFormInput does). */
function schemaInput(form: FormData, rows: number): Record<string, unknown> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const input: Record<string, unknown> = {};
  for (const name of ["type", "amount", "rate", "hours", "low", "high", "included", "startDate", "validUntil"]) input[name] = text(name);
  input.lineItems = Array.from({ length: rows }, (_, n) => ({ description: text(`lineItems.${n}.description`), amount: text(`lineItems.${n}.amount`) }));
  return input;
}

/**
 * Send a Quote, and Revise (`quoteId`: the open quote it replaces). The type picks the price's
 * fields; line items (up to 20) belong to a fixed price and must add up to it; Valid until
 * starts 14 days ahead of today in the server's time zone. Checked here with the server's own
 * schema first (useBrowserCheck); the server says 'Quote sent'.
 */
export function QuoteForm({ threadId, today, initial, quoteId, onDone }: { threadId: string; today: string; initial: QuoteFormValues; quoteId?: string; onDone?: () => void }) {
  const fetcher = useFetcher<Answer>();
  const { errors, check } = useBrowserCheck(fetcher.data);
  const [type, setType] = useState<QuoteType>(initial.type);
  const [rows, setRows] = useState(initial.lineItems.length);
  const id = useId();
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.success) onDone?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [fetcher.state, fetcher.data]);
  const field = (name: string, label: string, value: string, props: Record<string, unknown> = {}) => (
    <FormField id={`${id}-${name}`} label={label} error={errors[name]} required={props.required === true}>
      <Input {...fieldControlProps(`${id}-${name}`, { error: errors[name], required: props.required === true })} name={name} defaultValue={value} {...props} />
    </FormField>
  );
  const money = { inputMode: "decimal", required: true, placeholder: "0.00" } as const;
  return (
    <fetcher.Form
      method="post"
      action={`/messages/${threadId}`}
      noValidate
      className="grid gap-4"
      aria-label={quoteId ? "Revise quote" : SEND_A_QUOTE}
      onSubmit={(event) => check(event, quoteSchema(today).safeParse(schemaInput(new FormData(event.currentTarget), rows)))}
    >
      <input type="hidden" name="intent" value={quoteId ? "revise-quote" : "send-quote"} />
      {quoteId ? <input type="hidden" name="quoteId" value={quoteId} /> : null}
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Type</legend>
        <div className="flex flex-wrap gap-4">
          {QUOTE_TYPES.map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm">
              <input type="radio" name="type" value={option} checked={type === option} onChange={() => setType(option)} />
              {QUOTE_TYPE_LABELS[option]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        {type === "fixed" ? field("amount", "Price ($)", initial.amount, money) : null}
        {type === "hourly" ? (
          <>
            {field("rate", "Rate per hour ($)", initial.rate, money)}
            {field("hours", "Estimated hours", initial.hours, { inputMode: "decimal", required: true, placeholder: "12" })}
          </>
        ) : null}
        {type === "estimate" ? (
          <>
            {field("low", "From ($)", initial.low, money)}
            {field("high", "To ($)", initial.high, money)}
          </>
        ) : null}
      </div>
      <FormField id={`${id}-included`} label="What is included" required error={errors.included}>
        <Textarea {...fieldControlProps(`${id}-included`, { error: errors.included, required: true })} name="included" rows={3} maxLength={QUOTE_INCLUDED_MAX} defaultValue={initial.included} />
      </FormField>
      {type === "fixed" ? (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Line items (optional, they must add up to the price)</legend>
          {errors.lineItems ? <p className="text-sm text-destructive">{errors.lineItems}</p> : null}
          {Array.from({ length: rows }, (_, n) => (
            // Each field has its visible label (WCAG: the visible words are part of its name).
            <div key={n} className="grid grid-cols-[1fr_8rem] gap-x-2 gap-y-1">
              <label htmlFor={`${id}-item-${n}-description`} className="text-xs text-muted-foreground">
                Item {n + 1}
                <span className="sr-only"> description</span>
              </label>
              <label htmlFor={`${id}-item-${n}-amount`} className="text-xs text-muted-foreground">
                <span className="sr-only">Item {n + 1} </span>
                Amount ($)
              </label>
              <Input
                id={`${id}-item-${n}-description`}
                name={`lineItems.${n}.description`}
                aria-invalid={errors[`lineItems.${n}.description`] ? true : undefined}
                defaultValue={initial.lineItems[n]?.description}
                maxLength={200}
              />
              <Input
                id={`${id}-item-${n}-amount`}
                name={`lineItems.${n}.amount`}
                aria-invalid={errors[`lineItems.${n}.amount`] ? true : undefined}
                defaultValue={initial.lineItems[n]?.amount}
                inputMode="decimal"
              />
            </div>
          ))}
          {rows < QUOTE_LINE_ITEMS_MAX ? (
            <div>
              <Button type="button" variant="outline" size="sm" onClick={() => setRows(rows + 1)}>
                Add line item
              </Button>
            </div>
          ) : null}
        </fieldset>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        {field("startDate", "Start date (optional)", initial.startDate, { type: "date" })}
        {field("validUntil", "Valid until", initial.validUntil, { type: "date", min: today, required: true })}
      </div>
      <div className="flex justify-end gap-2">
        {onDone ? (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? "Sending..." : quoteId ? "Send revised quote" : "Send"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
