/** A quote row's price in core/quotes.ts's shape. */
import type { QuotePrice } from "#core/quotes.ts";
import type { quotes } from "../db/schema.ts";

type QuoteRow = Pick<typeof quotes.$inferSelect, "type" | "amountCents" | "rateCents" | "hours" | "lowCents" | "highCents">;

export function quotePrice(row: QuoteRow): QuotePrice {
  switch (row.type) {
    case "fixed":
      return { type: "fixed", amountCents: row.amountCents! };
    case "hourly":
      return { type: "hourly", rateCents: row.rateCents!, hours: Number(row.hours) };
    case "estimate":
      return { type: "estimate", lowCents: row.lowCents!, highCents: row.highCents! };
  }
}
