/**
 * Quotes (issue 33): what a digger may quote in a thread, how a quote reads, and the one figure
 * the client compares quotes by. The form's schema with its messages is used by the browser
 * (useBrowserCheck) and by the server alike. Money is integer cents, like the lead prices.
 */
import { z } from "zod";
import { addDays, startOfDayIn } from "./dates.ts";
import { formatPrice } from "./money.ts";

export const QUOTE_TYPES = ["fixed", "hourly", "estimate"] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];
export const QUOTE_TYPE_LABELS: Record<QuoteType, string> = { fixed: "Fixed price", hourly: "Hourly rate", estimate: "Estimate" };

const QUOTE_MIN_CENTS = 100;
export const QUOTE_MAX_CENTS = 100_000_000;
const QUOTE_HOURS_MIN = 0.5;
const QUOTE_HOURS_MAX = 1000;
export const QUOTE_INCLUDED_MAX = 2000;
export const QUOTE_LINE_ITEMS_MAX = 20;
const QUOTE_LINE_ITEM_DESCRIPTION_MAX = 200;
/** Valid until defaults to this many days ahead. */
export const QUOTE_VALID_DAYS = 14;

export const QUOTE_MESSAGES = {
  chooseType: "Please choose Fixed price, Hourly rate or Estimate",
  amount: "Please enter amounts in dollars, like 1250 or 1250.50",
  amountRange: "Amounts must be from $1.00 to $1,000,000.00",
  /** An hourly rate times its hours past the cap a fixed price has (QUOTE_MAX_CENTS). */
  totalTooHigh: "A quote can be at most $1,000,000.00 in total.",
  hours: "Hours must be from 0.5 to 1,000, in halves",
  rangeOrder: "The low end of the estimate must be below its high end",
  included: "Please say what the price includes",
  includedTooLong: `What is included must be at most ${QUOTE_INCLUDED_MAX} characters`,
  tooManyItems: `A quote has at most ${QUOTE_LINE_ITEMS_MAX} line items`,
  itemDescription: "Please describe each line item",
  itemDescriptionTooLong: `A line item's description must be at most ${QUOTE_LINE_ITEM_DESCRIPTION_MAX} characters`,
  itemsOnlyFixed: "Line items belong to a fixed price",
  date: "Please enter a valid date",
  validUntilPast: "Valid until cannot be in the past",
  sent: "Quote sent",
  replaced: "Replaced by a newer quote",
  accepted: "Accepted",
  notChosen: "Not chosen",
  lowestPrice: "Lowest price",
  fastestReply: "Fastest reply",
  midpoint: "midpoint",
  /** What a purged account's words in a quote become (its prices stay for the other party's records). */
  deleted: "Deleted with the digger's account",
} as const;

/** 'The line items add up to {sum}, not {price}' */
export const lineItemsMismatch = (sumCents: number, priceCents: number) =>
  `The line items add up to ${formatPrice(sumCents)}, not ${formatPrice(priceCents)}`;
/** The accept dialog's question: 'Accept {handle}'s quote of {price}?' */
export const acceptQuestion = (handle: string, price: string) => `Accept ${handle}'s quote of ${price}?`;
/** Accepting a quote that expired or was withdrawn or replaced meanwhile. */
export const quoteNoLongerOpen = (handle: string) => `This quote is no longer open. Ask ${handle} for a new one.`;
export const expiredOn = (date: string) => `Expired ${date}`;

/** Dollars typed into the form ("1250", "1,250.50", "$80") as integer cents within the range. */
const amount = z
  .string({ error: QUOTE_MESSAGES.amount })
  .trim()
  .transform((typed, ctx) => {
    const plain = typed.replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
    if (!/^\d+(\.\d{1,2})?$/.test(plain)) {
      ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.amount });
      return z.NEVER;
    }
    const [whole = "0", fraction = ""] = plain.split(".");
    // Digits, not floating point: "0.29" is 29 cents, never 28.999...
    const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
    if (cents < QUOTE_MIN_CENTS || cents > QUOTE_MAX_CENTS) {
      ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.amountRange });
      return z.NEVER;
    }
    return cents;
  });

const hours = z
  .string({ error: QUOTE_MESSAGES.hours })
  .trim()
  .refine((typed) => /^\d+(\.[05]0?)?$/.test(typed), QUOTE_MESSAGES.hours)
  .transform(Number)
  .refine((value) => value >= QUOTE_HOURS_MIN && value <= QUOTE_HOURS_MAX, QUOTE_MESSAGES.hours);

const isoDate = z
  .string()
  .trim()
  .refine((typed) => /^\d{4}-\d{2}-\d{2}$/.test(typed) && !Number.isNaN(Date.parse(`${typed}T00:00:00Z`)) && new Date(`${typed}T00:00:00Z`).toISOString().startsWith(typed), QUOTE_MESSAGES.date);

const lineItem = z.object({
  description: z
    .string({ error: QUOTE_MESSAGES.itemDescription })
    .trim()
    .min(1, QUOTE_MESSAGES.itemDescription)
    .max(QUOTE_LINE_ITEM_DESCRIPTION_MAX, QUOTE_MESSAGES.itemDescriptionTooLong),
  amount,
});

/** The price as quoted, in cents: one of the three shapes. */
export type QuotePrice =
  | { type: "fixed"; amountCents: number }
  | { type: "hourly"; rateCents: number; hours: number }
  | { type: "estimate"; lowCents: number; highCents: number };

export interface QuoteInput {
  price: QuotePrice;
  included: string;
  lineItems: Array<{ description: string; amountCents: number }>;
  startDate: string | null;
  validUntil: string;
}

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/**
 * The Send a Quote form, as its fields are named: `type`; `amount` (fixed), `rate` and `hours`
 * (hourly), `low` and `high` (estimate); `included`; `lineItems` ([{ description, amount }],
 * fixed prices only, rows left wholly blank dropped); `startDate`; `validUntil`. `today` is the
 * calendar day in the server's DIGEST_TIME_ZONE: a quote is valid until the end of that day
 * at the earliest.
 */
export function quoteSchema(today: string) {
  const price = z.discriminatedUnion(
    "type",
    [
      z.object({ type: z.literal("fixed"), amount }),
      z.object({ type: z.literal("hourly"), rate: amount, hours }),
      z.object({ type: z.literal("estimate"), low: amount, high: amount }),
    ],
    { error: QUOTE_MESSAGES.chooseType },
  );
  const rest = z.object({
    included: z
      .string({ error: QUOTE_MESSAGES.included })
      .trim()
      .min(1, QUOTE_MESSAGES.included)
      .refine((text) => [...text].length <= QUOTE_INCLUDED_MAX, QUOTE_MESSAGES.includedTooLong),
    lineItems: z
      .array(z.unknown())
      .optional()
      .transform((rows) => (rows ?? []).filter((row) => !isBlankRow(row)))
      .pipe(z.array(lineItem).max(QUOTE_LINE_ITEMS_MAX, QUOTE_MESSAGES.tooManyItems)),
    startDate: z.preprocess(blankToUndefined, isoDate.optional()),
    validUntil: z.preprocess(blankToUndefined, isoDate.refine((day) => day >= today, QUOTE_MESSAGES.validUntilPast).optional()),
  });
  return z
    .intersection(price, rest)
    .superRefine((quote, ctx) => {
      if (quote.type === "estimate" && quote.low >= quote.high) {
        ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.rangeOrder, path: ["low"] });
      }
      // Each amount is capped above; an hourly quote's total is capped the same way (rate × hours).
      if (quote.type === "hourly" && comparablePrice({ type: "hourly", rateCents: quote.rate, hours: quote.hours }) > QUOTE_MAX_CENTS) {
        ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.totalTooHigh, path: ["hours"] });
      }
      if (quote.lineItems.length > 0 && quote.type !== "fixed") {
        ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.itemsOnlyFixed, path: ["lineItems"] });
      }
      if (quote.type === "fixed" && quote.lineItems.length > 0) {
        const sum = quote.lineItems.reduce((total, item) => total + item.amount, 0);
        if (sum !== quote.amount) ctx.addIssue({ code: "custom", message: lineItemsMismatch(sum, quote.amount), path: ["lineItems"] });
      }
    })
    .transform(
      (quote): QuoteInput => ({
        price:
          quote.type === "fixed"
            ? { type: "fixed", amountCents: quote.amount }
            : quote.type === "hourly"
              ? { type: "hourly", rateCents: quote.rate, hours: quote.hours }
              : { type: "estimate", lowCents: quote.low, highCents: quote.high },
        included: quote.included,
        lineItems: quote.lineItems.map((item) => ({ description: item.description, amountCents: item.amount })),
        startDate: quote.startDate ?? null,
        validUntil: quote.validUntil ?? addDays(today, QUOTE_VALID_DAYS),
      }),
    );
}

function isBlankRow(row: unknown): boolean {
  if (!row || typeof row !== "object") return false;
  return Object.values(row).every((value) => value === undefined || (typeof value === "string" && value.trim() === ""));
}

/** The price as quoted: '$1,250.00', '$80.00/hour × 12 hours', '$900.00 to $1,400.00'. */
export function quotedPrice(price: QuotePrice): string {
  switch (price.type) {
    case "fixed":
      return formatPrice(price.amountCents);
    case "hourly":
      return `${formatPrice(price.rateCents)}/hour × ${price.hours} ${price.hours === 1 ? "hour" : "hours"}`;
    case "estimate":
      return `${formatPrice(price.lowCents)} to ${formatPrice(price.highCents)}`;
  }
}

/**
 * The one figure quotes are compared by, in cents: a fixed price's amount, an hourly rate times
 * its hours, an estimate's midpoint (labelled 'midpoint' where it is shown). Half cents round
 * up, as a client would pay them.
 */
export function comparablePrice(price: QuotePrice): number {
  switch (price.type) {
    case "fixed":
      return price.amountCents;
    case "hourly":
      return Math.round(price.rateCents * price.hours);
    case "estimate":
      return Math.round((price.lowCents + price.highCents) / 2);
  }
}

/** When a quote valid until `validUntil` (YYYY-MM-DD) stops being open: that day's end, midnight in `timeZone`. */
export function quoteExpiresAt(validUntil: string, timeZone: string): Date {
  return startOfDayIn(addDays(validUntil, 1), timeZone);
}

/** The server's answers and refusals of the quote actions (issue 33). */
export const QUOTE_ANSWERS = {
  withdrawn: "Quote withdrawn",
  declined: "Quote declined",
  onlyDigger: "Only the digger of this conversation can send or change a quote",
  onlyClient: "Only the client can accept or decline a quote",
  alreadyOpen: "You already have an open quote for this gig: revise or withdraw it",
  alreadyAccepted: "The client has already accepted a quote for this gig",
  refunded: "This lead was fully refunded: it cannot be quoted or accepted",
  notOpen: "This quote is no longer open",
  notFound: "Quote not found",
  reasonTooLong: "A reason must be at most 1,000 characters",
} as const;

export const QUOTE_DECLINE_REASON_MAX = 1000;

/**
 * Which quote a form acts on (Revise, Withdraw, Accept, Decline): its id as sent. The operation
 * checks it is one of the thread's quotes (the 404 'Quote not found' otherwise).
 */
export const quoteChoiceSchema = z.object({ quoteId: z.string().optional() });

/** Decline, with an optional reason the digger sees. */
export const declineSchema = z.object({
  reason: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? value : undefined),
    z
      .string()
      .trim()
      .refine((text) => [...text].length <= QUOTE_DECLINE_REASON_MAX, QUOTE_ANSWERS.reasonTooLong)
      .optional(),
  ),
});
export type DeclineInput = z.output<typeof declineSchema>;
