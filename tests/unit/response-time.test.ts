import { describe, expect, it } from "vitest";
import { median, responseTimeLabel, type PurchaseResponse } from "#core/response-time.ts";

const now = new Date("2026-11-26T12:00:00Z");
const HOUR = 3_600_000;
let clients = 0;
/** A purchase `daysAgo` days before now, answered `afterHours` later (null: not yet), of `clientId`'s gig (by default a client of its own). */
const purchase = (daysAgo: number, afterHours: number | null, clientId = `client-${++clients}`): PurchaseResponse => {
  const purchasedAt = new Date(now.getTime() - daysAgo * 24 * HOUR);
  return { purchasedAt, clientId, firstAnswerAt: afterHours === null ? null : new Date(purchasedAt.getTime() + afterHours * HOUR) };
};

describe("response time, earned", () => {
  it("says nothing with fewer than 3 counted purchases", () => {
    expect(responseTimeLabel([], now)).toBeNull();
    expect(responseTimeLabel([purchase(2, 0.1), purchase(3, 0.2)], now)).toBeNull();
    // A purchase younger than a day with no answer yet does not count.
    expect(responseTimeLabel([purchase(2, 0.1), purchase(3, 0.2), purchase(0.5, null)], now)).toBeNull();
  });

  it("says nothing until the counted purchases come from at least 3 different clients (issue 45, finding 8)", () => {
    // One client's three gigs, answered at once.
    expect(responseTimeLabel([purchase(2, 0.1, "a"), purchase(3, 0.1, "a"), purchase(4, 0.1, "a")], now)).toBeNull();
    expect(responseTimeLabel([purchase(2, 0.1, "a"), purchase(3, 0.1, "a"), purchase(4, 0.1, "b"), purchase(5, 0.1, "b")], now)).toBeNull();
    // A third client's purchase that does not count yet (younger than a day, no answer) does not make three.
    expect(responseTimeLabel([purchase(2, 0.1, "a"), purchase(3, 0.1, "a"), purchase(4, 0.1, "b"), purchase(0.5, null, "c")], now)).toBeNull();
    expect(responseTimeLabel([purchase(2, 0.1, "a"), purchase(3, 0.1, "a"), purchase(4, 0.1, "b"), purchase(5, 0.1, "c")], now)).toBe("Usually responds within an hour");
  });

  it("takes the median delay: within an hour, a few hours, a day, or nothing", () => {
    expect(responseTimeLabel([purchase(2, 0.5), purchase(3, 1), purchase(4, 30)], now)).toBe("Usually responds within an hour");
    expect(responseTimeLabel([purchase(2, 0.5), purchase(3, 6), purchase(4, 30)], now)).toBe("Usually responds within a few hours");
    expect(responseTimeLabel([purchase(2, 7), purchase(3, 24), purchase(4, 0.1)], now)).toBe("Usually responds within a day");
    expect(responseTimeLabel([purchase(2, 25), purchase(3, 48), purchase(4, 0.1)], now)).toBeNull();
    // Even count: the mean of the two middle delays (2 h and 8 h: 5 h).
    expect(responseTimeLabel([purchase(2, 1), purchase(3, 2), purchase(4, 8), purchase(5, 9)], now)).toBe("Usually responds within a few hours");
  });

  it("counts a purchase a day old with no answer as more than a day", () => {
    expect(responseTimeLabel([purchase(2, null), purchase(8, null), purchase(4, 0.2)], now)).toBeNull();
    expect(responseTimeLabel([purchase(2, null), purchase(3, 0.2), purchase(4, 0.3)], now)).toBe("Usually responds within an hour");
  });

  it("looks at the last 90 days only", () => {
    const old = [purchase(91, 0.1), purchase(95, 0.1), purchase(120, 0.1)];
    expect(responseTimeLabel(old, now)).toBeNull();
    expect(responseTimeLabel([...old, purchase(89, 30), purchase(10, 30), purchase(5, 30)], now)).toBeNull();
    expect(responseTimeLabel([purchase(89, 0.5), purchase(10, 0.5), purchase(5, 0.5), purchase(100, 48)], now)).toBe("Usually responds within an hour");
  });

  it("median", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([1, Infinity])).toBe(Infinity);
  });
});
