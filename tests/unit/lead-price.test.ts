import { describe, expect, it } from "vitest";
import { formatPrice } from "../../core/money.ts";
import { leadPriceCents } from "../../core/lead-price.ts";

describe("lead price: 0.5% of the minimum budget, at least $50.00", () => {
  it.each([
    [500_000, "$50.00"], // spec: $5,000 gives $50
    [2_000_000, "$100.00"], // spec: $20,000 gives $100
    [null, "$50.00"], // no minimum budget
    [undefined, "$50.00"],
    [0, "$50.00"],
    [999_999, "$50.00"], // $9,999.99 -> $49.99999 -> minimum
    [1_000_100, "$50.01"], // $10,001 -> $50.005 -> rounded to the cent
    [10_000_000_000, "$500,000.00"], // $100M
  ])("%s cents -> %s", (budgetMin, price) => {
    expect(formatPrice(leadPriceCents(budgetMin))).toBe(price);
  });

  it("is always a whole number of cents", () => {
    for (const budget of [123_457, 9_999_999, 31_415_926]) expect(Number.isInteger(leadPriceCents(budget))).toBe(true);
  });
});
