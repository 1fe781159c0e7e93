/**
 * The app writes numbers, money, dates and relative times out by hand instead of through
 * `Intl` (core/money.ts says why). Each is held here to what `Intl` writes for en-US, over
 * generated values, so the two cannot drift apart.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate } from "../../core/dates.ts";
import { formatCount, formatMoney, formatPrice } from "../../core/money.ts";
import { TIME_UNITS, timeAgo } from "../../core/relative-time.ts";

const runs = { numRuns: 2000 };
const wholeDollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const dollarsAndCents = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const mediumDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "always" });

/** Integers of every width, so that each grouping of digits comes up. */
const integers = fc.oneof(
  fc.integer({ min: -999, max: 999 }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
);
/** Instants from 1970 to 2200, where the app's dates fall. */
const instants = fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }).map((ms) => new Date(ms));

describe("en-US formats without Intl", () => {
  it("groups a count's digits as Intl does", () => {
    fc.assert(
      fc.property(integers, (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
      }),
      runs,
    );
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-1000)).toBe("-1,000");
    expect(formatCount(0)).toBe("0");
  });

  it("writes cents as dollars as Intl's currency format does", () => {
    fc.assert(
      fc.property(integers, (cents) => {
        expect(formatPrice(cents)).toBe(dollarsAndCents.format(cents / 100));
        expect(formatMoney(cents)).toBe((cents % 100 === 0 ? wholeDollars : dollarsAndCents).format(cents / 100));
      }),
      runs,
    );
    expect(formatMoney(123400)).toBe("$1,234");
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(-5)).toBe("-$0.05");
    expect(formatPrice(5000)).toBe("$50.00");
  });

  it("writes a calendar day as Intl's medium date does", () => {
    fc.assert(
      fc.property(instants, (at) => {
        expect(formatDate(at)).toBe(mediumDate.format(at));
        expect(formatDate(at.toISOString())).toBe(mediumDate.format(at));
      }),
      runs,
    );
  });

  it("refuses a date that is not one, as Intl does", () => {
    expect(() => formatDate("not a date")).toThrow(RangeError);
  });

  it("writes how long ago as Intl's relative time does", () => {
    const now = new Date("2026-11-27T12:00:00Z");
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 3000 * 365 * 24 * 3600 }), (seconds) => {
        const [unit, size] = TIME_UNITS.find(([, size]) => seconds >= size)!;
        expect(timeAgo(new Date(now.getTime() - seconds * 1000), now)).toBe(relative.format(-Math.floor(seconds / size), unit));
      }),
      runs,
    );
  });
});
