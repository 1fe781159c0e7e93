/**
 * An open-loop run: requests sent at evenly spaced times (`rate` a second), whatever the
 * answers do, each timed from the moment it was due, so that a stall shows as the queue it
 * makes. autocannon's `overallRate` is not that: each connection asks as fast as it can until
 * its quota for the second is used, then waits for the next second, so the whole second's
 * requests leave together (autocannon/lib/httpClient.js, `reqsMadeThisSecond`) and the run
 * times a burst queueing behind itself (bench/results/history.md, "What the quiet machine showed first":
 * "The open loop was a burst").
 */
import http from "node:http";
import { BROWSER_ACCEPT_ENCODING, type LoadResult } from "./load.ts";

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0);

/** Latencies (ms) reduced as autocannon's are: p50, p97.5, p99, max. */
export function latencyFigures(latencies: number[]): Pick<LoadResult, "p50" | "p97_5" | "p99" | "max"> {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { p50: round(quantile(sorted, 0.5)), p97_5: round(quantile(sorted, 0.975)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0) };
}

/** The send times of a run: `rate` a second, evenly spaced, over `seconds`. */
export function schedule(rate: number, seconds: number): number[] {
  const count = Math.floor(rate * seconds);
  return Array.from({ length: count }, (_, i) => (i * 1000) / rate);
}

export async function openLoad(
  baseUrl: string,
  path: string,
  rate: number,
  seconds: number,
  headers: Record<string, string> = {},
  /** At most this many requests on the way; a request due beyond it counts as a timeout. */
  maxOutstanding = 200,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxOutstanding });
  const url = new URL(path, baseUrl);
  const requestHeaders = { accept: path.includes(".data") ? "*/*" : "text/html", "accept-encoding": BROWSER_ACCEPT_ENCODING, ...headers };
  const latencies: number[] = [];
  let errors = 0;
  let timeouts = 0;
  let non2xx = 0;
  let bytes = 0;
  let outstanding = 0;
  const pending: Promise<void>[] = [];

  const send = (due: number) =>
    new Promise<void>((resolve) => {
      outstanding += 1;
      const request = http.get(url, { agent, headers: requestHeaders, timeout: 10_000 }, (response) => {
        if (response.statusCode! < 200 || response.statusCode! >= 300) non2xx += 1;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => {
          latencies.push(performance.now() - due);
          outstanding -= 1;
          resolve();
        });
      });
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", (error) => {
        if (error.message === "timeout") timeouts += 1;
        else errors += 1;
        outstanding -= 1;
        resolve();
      });
    });

  const start = performance.now();
  const offsets = schedule(rate, seconds);
  let next = 0;
  while (next < offsets.length) {
    const now = performance.now();
    // Everything due by now leaves now (a late timer must not thin the offer), each timed from its own due time.
    while (next < offsets.length && start + offsets[next]! <= now) {
      const due = start + offsets[next]!;
      next += 1;
      if (outstanding >= maxOutstanding) timeouts += 1;
      else pending.push(send(due));
    }
    if (next < offsets.length) await new Promise((r) => setTimeout(r, Math.max(0, start + offsets[next]! - performance.now())));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const requests = latencies.length;
  return {
    path,
    connections: maxOutstanding,
    seconds,
    requests,
    rps: Math.round((requests / elapsed) * 10) / 10,
    ...latencyFigures(latencies),
    errors,
    timeouts,
    non2xx,
    bytesPerRequest: requests > 0 ? Math.round(bytes / requests) : 0,
  };
}
