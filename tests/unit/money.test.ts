import { describe, expect, it } from "vitest";
import { budgetText, formatMoney, formatPrice } from "../../core/money.ts";

describe("budgetText (spec section 5 display rule)", () => {
  it("says 'Budget not specified' when neither bound is set", () => {
    expect(budgetText(null, null)).toBe("Budget not specified");
    expect(budgetText(undefined, undefined)).toBe("Budget not specified");
  });

  it("shows '$min - $max' when both are set", () => {
    expect(budgetText(50_000, 120_000)).toBe("$500 - $1,200");
    expect(budgetText(2_500_000, 4_000_000)).toBe("$25,000 - $40,000");
  });

  it("shows 'From $min' with only a minimum", () => {
    expect(budgetText(300_000, null)).toBe("From $3,000");
  });

  it("shows 'Up to $max' with only a maximum", () => {
    expect(budgetText(null, 80_000)).toBe("Up to $800");
  });

  it("treats 0 as a bound, not as 'not set'", () => {
    expect(budgetText(0, 50_000)).toBe("$0 - $500");
    expect(budgetText(0, null)).toBe("From $0");
  });
});

describe("formatMoney", () => {
  it("shows whole dollars without cents and with thousands separators", () => {
    expect(formatMoney(123_400)).toBe("$1,234");
    expect(formatMoney(100_000_000)).toBe("$1,000,000");
    expect(formatMoney(0)).toBe("$0");
  });

  it("shows two decimals when there are cents", () => {
    expect(formatMoney(123_456)).toBe("$1,234.56");
    expect(formatMoney(1_050)).toBe("$10.50");
    expect(formatMoney(1)).toBe("$0.01");
  });
});

describe("formatPrice", () => {
  it("always shows two decimals, as lead prices are shown", () => {
    expect(formatPrice(5_000)).toBe("$50.00");
    expect(formatPrice(10_000)).toBe("$100.00");
    expect(formatPrice(12_345)).toBe("$123.45");
  });
});
