import { describe, expect, it } from "vitest";
import { addDays, startOfDayIn } from "#core/dates.ts";
import { fieldMessages, firstMessage } from "#core/forms.ts";
import { acceptQuestion, comparablePrice, QUOTE_MESSAGES, quotedPrice, quoteExpiresAt, quoteNoLongerOpen, quoteSchema } from "#core/quotes.ts";

const today = "2026-11-26";
const schema = quoteSchema(today);
const base = { included: "Labour, materials and clean-up" };

function refusal(input: Record<string, unknown>) {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  return { first: firstMessage(parsed.error), fields: fieldMessages(parsed.error) };
}

describe("the Send a Quote form", () => {
  it("takes each type as integer cents, with a default Valid until 14 days ahead", () => {
    expect(schema.parse({ ...base, type: "fixed", amount: "1,250" })).toEqual({
      price: { type: "fixed", amountCents: 125_000 },
      included: "Labour, materials and clean-up",
      lineItems: [],
      startDate: null,
      validUntil: "2026-12-10",
    });
    expect(schema.parse({ ...base, type: "hourly", rate: "$80.00", hours: "12" }).price).toEqual({ type: "hourly", rateCents: 8000, hours: 12 });
    expect(schema.parse({ ...base, type: "hourly", rate: "80", hours: "0.5" }).price).toEqual({ type: "hourly", rateCents: 8000, hours: 0.5 });
    expect(schema.parse({ ...base, type: "estimate", low: "900", high: "1400.5" }).price).toEqual({ type: "estimate", lowCents: 90_000, highCents: 140_050 });
    // Digits, not floating point: 0.29 dollars is 29 cents.
    expect(schema.parse({ ...base, type: "fixed", amount: "1000000" }).price).toEqual({ type: "fixed", amountCents: 100_000_000 });
    expect(schema.parse({ ...base, type: "fixed", amount: "10.29" }).price).toEqual({ type: "fixed", amountCents: 1029 });
  });

  it("refuses amounts outside $1 to $1,000,000 and what is not dollars and cents", () => {
    expect(refusal({ ...base, type: "fixed", amount: "0.99" }).first).toBe(QUOTE_MESSAGES.amountRange);
    expect(refusal({ ...base, type: "fixed", amount: "1000000.01" }).first).toBe(QUOTE_MESSAGES.amountRange);
    for (const typed of ["", "abc", "1e3", "12.345", "-5", "0x10", "1,25"]) {
      expect(refusal({ ...base, type: "fixed", amount: typed }).fields.amount).toBe(QUOTE_MESSAGES.amount);
    }
  });

  it("takes hours from 0.5 to 1,000 in halves only", () => {
    for (const typed of ["0", "0.25", "1.2", "1000.5", "-1", "x"]) {
      expect(refusal({ ...base, type: "hourly", rate: "80", hours: typed }).fields.hours).toBe(QUOTE_MESSAGES.hours);
    }
    expect(schema.parse({ ...base, type: "hourly", rate: "80", hours: "1000" }).price).toMatchObject({ hours: 1000 });
  });

  it("caps an hourly quote's total (rate × hours) at $1,000,000, as a fixed price", () => {
    expect(QUOTE_MESSAGES.totalTooHigh).toBe("A quote can be at most $1,000,000.00 in total.");
    // The attack's quote: $1,000,000 an hour for 1,000 hours, a $1,000,000,000 total; each figure alone within its limits.
    expect(refusal({ ...base, type: "hourly", rate: "1000000", hours: "1000" })).toEqual({ first: QUOTE_MESSAGES.totalTooHigh, fields: { hours: QUOTE_MESSAGES.totalTooHigh } });
    expect(refusal({ ...base, type: "hourly", rate: "1000000", hours: "1.5" }).first).toBe(QUOTE_MESSAGES.totalTooHigh);
    expect(refusal({ ...base, type: "hourly", rate: "2000.01", hours: "500" }).first).toBe(QUOTE_MESSAGES.totalTooHigh);
    // $1,000,000.005: the half cent rounds up (comparablePrice), past the cap.
    expect(refusal({ ...base, type: "hourly", rate: "666666.67", hours: "1.5" }).first).toBe(QUOTE_MESSAGES.totalTooHigh);
    // At the cap, and just under it.
    expect(schema.parse({ ...base, type: "hourly", rate: "1000", hours: "1000" }).price).toEqual({ type: "hourly", rateCents: 100_000, hours: 1000 });
    expect(schema.parse({ ...base, type: "hourly", rate: "1000000", hours: "1" }).price).toEqual({ type: "hourly", rateCents: 100_000_000, hours: 1 });
    expect(schema.parse({ ...base, type: "hourly", rate: "666666.66", hours: "1.5" }).price).toEqual({ type: "hourly", rateCents: 66_666_666, hours: 1.5 });
  });

  it("asks for a type, what is included, and an estimate whose low end is below its high end", () => {
    expect(refusal({ ...base, amount: "100" }).first).toBe(QUOTE_MESSAGES.chooseType);
    expect(refusal({ ...base, type: "barter", amount: "100" }).first).toBe(QUOTE_MESSAGES.chooseType);
    expect(refusal({ type: "fixed", amount: "100", included: "   " }).fields.included).toBe("Please say what the price includes");
    expect(refusal({ type: "fixed", amount: "100", included: "x".repeat(2001) }).fields.included).toBe(QUOTE_MESSAGES.includedTooLong);
    expect(schema.safeParse({ type: "fixed", amount: "100", included: "x".repeat(2000) }).success).toBe(true);
    expect(refusal({ ...base, type: "estimate", low: "1400", high: "900" }).fields.low).toBe(QUOTE_MESSAGES.rangeOrder);
    expect(refusal({ ...base, type: "estimate", low: "900", high: "900" }).fields.low).toBe(QUOTE_MESSAGES.rangeOrder);
  });

  it("line items: at most 20, each described, summing to the fixed price exactly", () => {
    const items = (amounts: string[]) => amounts.map((amount, i) => ({ description: `Item ${i + 1}`, amount }));
    expect(schema.parse({ ...base, type: "fixed", amount: "1250", lineItems: items(["1000", "250.00"]) }).lineItems).toEqual([
      { description: "Item 1", amountCents: 100_000 },
      { description: "Item 2", amountCents: 25_000 },
    ]);
    expect(refusal({ ...base, type: "fixed", amount: "1250", lineItems: items(["1000", "200"]) }).fields.lineItems).toBe(
      "The line items add up to $1,200.00, not $1,250.00",
    );
    expect(refusal({ ...base, type: "fixed", amount: "21", lineItems: items(Array(21).fill("1")) }).fields.lineItems).toBe(QUOTE_MESSAGES.tooManyItems);
    expect(schema.safeParse({ ...base, type: "fixed", amount: "20", lineItems: items(Array(20).fill("1")) }).success).toBe(true);
    expect(refusal({ ...base, type: "fixed", amount: "10", lineItems: [{ description: " ", amount: "10" }] }).fields["lineItems.0.description"]).toBe(
      QUOTE_MESSAGES.itemDescription,
    );
    // A row left wholly blank (the form's empty last row) is no line item.
    expect(schema.parse({ ...base, type: "fixed", amount: "10", lineItems: [{ description: "", amount: " " }] }).lineItems).toEqual([]);
    expect(refusal({ ...base, type: "hourly", rate: "80", hours: "2", lineItems: items(["160"]) }).fields.lineItems).toBe(QUOTE_MESSAGES.itemsOnlyFixed);
  });

  it("Valid until is today or later; dates must be real", () => {
    expect(schema.parse({ ...base, type: "fixed", amount: "10", validUntil: today }).validUntil).toBe(today);
    expect(refusal({ ...base, type: "fixed", amount: "10", validUntil: "2026-11-25" }).fields.validUntil).toBe("Valid until cannot be in the past");
    expect(refusal({ ...base, type: "fixed", amount: "10", validUntil: "2026-02-30" }).fields.validUntil).toBe(QUOTE_MESSAGES.date);
    expect(refusal({ ...base, type: "fixed", amount: "10", startDate: "next week" }).fields.startDate).toBe(QUOTE_MESSAGES.date);
    expect(schema.parse({ ...base, type: "fixed", amount: "10", startDate: "2026-12-01" }).startDate).toBe("2026-12-01");
  });
});

describe("how a quote reads and compares", () => {
  it("says the price as quoted", () => {
    expect(quotedPrice({ type: "fixed", amountCents: 125_000 })).toBe("$1,250.00");
    expect(quotedPrice({ type: "hourly", rateCents: 8000, hours: 12 })).toBe("$80.00/hour × 12 hours");
    expect(quotedPrice({ type: "hourly", rateCents: 8000, hours: 1 })).toBe("$80.00/hour × 1 hour");
    expect(quotedPrice({ type: "estimate", lowCents: 90_000, highCents: 140_000 })).toBe("$900.00 to $1,400.00");
    expect(acceptQuestion("fixit_pro", "$1,250.00")).toBe("Accept fixit_pro's quote of $1,250.00?");
    expect(quoteNoLongerOpen("fixit_pro")).toBe("This quote is no longer open. Ask fixit_pro for a new one.");
  });

  it("compares by amount, rate × hours, or the estimate's midpoint", () => {
    expect(comparablePrice({ type: "fixed", amountCents: 125_000 })).toBe(125_000);
    expect(comparablePrice({ type: "hourly", rateCents: 8000, hours: 12 })).toBe(96_000);
    expect(comparablePrice({ type: "hourly", rateCents: 8001, hours: 0.5 })).toBe(4001);
    expect(comparablePrice({ type: "estimate", lowCents: 90_000, highCents: 140_000 })).toBe(115_000);
  });

  it("a quote ends at midnight after its Valid until day, in the server's time zone", () => {
    expect(quoteExpiresAt("2026-11-26", "UTC").toISOString()).toBe("2026-11-27T00:00:00.000Z");
    expect(quoteExpiresAt("2026-11-26", "America/New_York").toISOString()).toBe("2026-11-27T05:00:00.000Z");
    expect(quoteExpiresAt("2026-11-26", "Europe/Paris").toISOString()).toBe("2026-11-26T23:00:00.000Z");
    // Across clock changes: New York's midnight is 04:00 UTC in summer, 05:00 UTC in winter.
    expect(startOfDayIn("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfDayIn("2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(startOfDayIn("2026-10-25", "Europe/Paris").toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});
