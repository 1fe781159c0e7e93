/** The bench's reading of a Prometheus histogram over one run (bench/lib/signed-in.ts). */
import { describe, expect, it } from "vitest";
import { histogramDelta } from "../../bench/lib/signed-in.ts";

const scrape = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([le, n]) => `x_seconds_bucket{le="${le}"} ${n}`)
    .join("\n");

describe("histogramDelta", () => {
  it("counts only the run's samples: p99's bucket and those over 50 ms", () => {
    const before = scrape({ "0.01": 100, "0.05": 100, "0.1": 100, "+Inf": 100 });
    // 1,000 samples in the run: 985 under 10 ms, 10 under 50 ms, 4 under 100 ms, 1 above.
    const after = scrape({ "0.01": 1085, "0.05": 1095, "0.1": 1099, "+Inf": 1100 });
    expect(histogramDelta(before, after, "x_seconds")).toEqual({ count: 1000, p99AtMostMs: 50, over50ms: 5 });
  });

  it("reads a first scrape without the metric as zero, and an empty run as no samples", () => {
    const after = scrape({ "0.01": 10, "0.05": 10, "0.1": 10, "+Inf": 10 });
    expect(histogramDelta("", after, "x_seconds")).toEqual({ count: 10, p99AtMostMs: 10, over50ms: 0 });
    expect(histogramDelta(after, after, "x_seconds")).toEqual({ count: 0, p99AtMostMs: 0, over50ms: 0 });
  });
});
