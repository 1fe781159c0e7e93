/** The bench's open loop (bench/lib/open-loop.ts): an even offer, and a stall seen as the queue it makes. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latencyFigures, openLoad, schedule } from "../../bench/lib/open-loop.ts";

describe("schedule", () => {
  it("spaces the sends evenly over the run, never a second's worth at once", () => {
    const times = schedule(20, 2);
    expect(times).toHaveLength(40);
    expect(times.slice(0, 3)).toEqual([0, 50, 100]);
    expect(new Set(times.slice(1).map((t, i) => t - times[i]!))).toEqual(new Set([50]));
  });
});

describe("latencyFigures", () => {
  it("reads the quantiles as the smallest value at or above that share", () => {
    const latencies = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(latencyFigures(latencies)).toEqual({ p50: 50, p97_5: 98, p99: 99, max: 100 });
    expect(latencyFigures([])).toEqual({ p50: 0, p97_5: 0, p99: 0, max: 0 });
  });
});

describe("openLoad", () => {
  // Answers at once, except that every request arriving in the stall window waits until its end.
  let server: http.Server;
  let url = "";
  let stallUntil = 0;
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      const wait = Math.max(0, stallUntil - performance.now());
      setTimeout(() => response.end("ok"), wait);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("offers the rate asked and times a quick server as quick", async () => {
    stallUntil = 0;
    const run = await openLoad(url, "/", 50, 1);
    expect(run.requests).toBe(50);
    expect(run.errors + run.timeouts + run.non2xx).toBe(0);
    expect(run.p50).toBeLessThan(50);
  });

  it("counts a stall in every request that was due during it, not only the first", async () => {
    stallUntil = performance.now() + 700;
    const run = await openLoad(url, "/", 50, 1);
    // 35 of the 50 were due in the 700 ms stall, the k-th of them waiting about 700 - 20k ms:
    // the median request is one of them, and waited some 200 ms.
    expect(run.requests).toBe(50);
    expect(run.p50).toBeGreaterThanOrEqual(100);
    expect(run.max).toBeGreaterThanOrEqual(600);
    expect(run.max).toBeLessThan(2_000);
  });
});
