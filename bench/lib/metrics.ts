/** The built server's /metrics, read by the bench (the server runs with METRICS_TOKEN set to this). */
import type { BenchServer } from "./server.ts";

export const METRICS_TOKEN = "bench-metrics-token";

/** One sample's value in a Prometheus text page (NaN: absent). */
export function metric(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "m").exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

export async function scrape(server: BenchServer): Promise<string> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!response.ok) throw new Error(`bench: /metrics answered ${response.status}`);
  return response.text();
}
