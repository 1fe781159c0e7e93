/**
 * The browse query's own SQL in a plain `pg` loop: N clients, each sending the query again as
 * soon as it is answered. What the server adds on top of this (routing, session lookup, the
 * root loader, serialisation, rendering) is the difference between the two figures.
 */
import pg from "pg";

export interface RawSqlResult {
  clients: number;
  seconds: number;
  queries: number;
  qps: number;
  p50: number;
  p99: number;
}

export async function rawSqlLoop(url: string, text: string, params: unknown[], clients: number, seconds: number): Promise<RawSqlResult> {
  const pool = new pg.Pool({ connectionString: url, max: clients });
  const latencies: number[] = [];
  try {
    // Warm up (and prepare the plan cache) before timing.
    for (let i = 0; i < 5; i++) await pool.query({ name: "browse", text, values: params });
    const end = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        const client = await pool.connect();
        try {
          while (performance.now() < end) {
            const t = performance.now();
            await client.query({ name: "browse", text, values: params });
            latencies.push(performance.now() - t);
          }
        } finally {
          client.release();
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
    return { clients, seconds, queries: latencies.length, qps: Math.round((latencies.length / elapsed) * 10) / 10, p50: at(0.5), p99: at(0.99) };
  } finally {
    await pool.end();
  }
}
