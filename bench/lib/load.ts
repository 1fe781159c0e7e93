/** One autocannon run against one address, reduced to the figures the report needs. */
import autocannon from "autocannon";

/** What Chromium sends. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

export interface LoadResult {
  path: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  bytesPerRequest: number;
}

/**
 * `headers`: more request headers, such as a signed-in person's cookie; `rate`: requests a
 * second offered over all connections (autocannon's overallRate), instead of each connection
 * asking again as soon as it is answered.
 */
export async function load(
  baseUrl: string,
  path: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
  rate?: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl + path,
    connections,
    duration: seconds,
    timeout: 10,
    ...(rate ? { overallRate: rate } : {}),
    // Each request is what a first visit or a navigation asks: no cookies, no cache, and
    // compression as every browser accepts it (runs before 2026-11-22-4 asked for none).
    headers: { accept: path.includes(".data") ? "*/*" : "text/html", "accept-encoding": BROWSER_ACCEPT_ENCODING, ...headers },
  });
  const requests = result.requests.total;
  return {
    path,
    connections,
    seconds,
    requests,
    rps: Math.round((requests / result.duration) * 10) / 10,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytesPerRequest: requests > 0 ? Math.round(result.throughput.total / requests) : 0,
  };
}

/** A few sequential requests so that the first measured one does not pay for cold caches. */
export async function warm(baseUrl: string, path: string, times = 5, headers: Record<string, string> = {}): Promise<number> {
  let status = 0;
  for (let i = 0; i < times; i++) {
    const response = await fetch(baseUrl + path, {
      headers: { accept: path.includes(".data") ? "*/*" : "text/html", "accept-encoding": BROWSER_ACCEPT_ENCODING, ...headers },
    });
    await response.arrayBuffer();
    status = response.status;
  }
  return status;
}
