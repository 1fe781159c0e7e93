import { describe, expect, it } from "vitest";
import { compareThroughput, type LevelRounds } from "../../bench/lib/throughput.ts";

/** Rounds spread around `center` by about `spread` (a fixed pattern, so the test is exact). */
const rounds = (center: number, spread: number) => [center * (1 - spread), center, center * (1 + spread)];
const endpoints = (n: number, high: (i: number) => number[]): LevelRounds[] =>
  Array.from({ length: n }, (_, i) => ({ key: `e${i}`, low: rounds(1000 + i, 0.1), high: high(i) }));

describe("throughput at 50 connections against 10", () => {
  it("finds nothing lower when both levels move within the same noise", () => {
    const verdict = compareThroughput(endpoints(24, (i) => rounds(1000 + i, 0.1).reverse()));
    expect(verdict.lower).toEqual([]);
    expect(verdict.overall.lower).toBe(false);
    expect(verdict.noise).toBeGreaterThan(0.05);
  });

  it("finds one endpoint that lost a third of its throughput", () => {
    const verdict = compareThroughput(endpoints(24, (i) => rounds(i === 5 ? 660 : 1000 + i, 0.1)));
    expect(verdict.lower.map((x) => x.key)).toEqual(["e5"]);
    expect(verdict.lower[0]!.ratio).toBeCloseTo(0.66, 2);
  });

  it("finds a small drop that every endpoint shares, though none alone is beyond the noise", () => {
    const verdict = compareThroughput(endpoints(24, (i) => rounds((1000 + i) * 0.92, 0.1)));
    expect(verdict.lower).toEqual([]);
    expect(verdict.overall.lower).toBe(true);
    expect(verdict.overall.ratio).toBeCloseTo(0.92, 2);
  });

  it("compares single rounds plainly", () => {
    const verdict = compareThroughput([
      { key: "a", low: [1000], high: [990] },
      { key: "b", low: [1000], high: [1200] },
    ]);
    expect(verdict.noise).toBeNull();
    expect(verdict.lower.map((x) => x.key)).toEqual(["a"]);
  });
});
