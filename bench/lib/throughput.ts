/**
 * "No lower throughput at 50 connections than at 10", judged against the run's own noise.
 * One 5 s round of the same endpoint at the same level moves by 10-15% here, so a plain
 * comparison of two numbers fails by chance. With several rounds: the noise is the pooled
 * standard deviation of log(req/s) between rounds (over every endpoint and level). One
 * endpoint is lower when its geometric mean at the high level is below the low level's by
 * more than 3 standard errors (3, as about 24 endpoints are tested at once); all endpoints
 * together are lower when the mean of those differences is below 0 by more than 2 (a small
 * drop everywhere). A single round is compared plainly.
 */

/** Requests per second of each round, per endpoint, at the two levels. */
export interface LevelRounds {
  key: string;
  low: number[];
  high: number[];
}

export interface ThroughputVerdict {
  /** Endpoints whose throughput at the high level is lower than at the low level. */
  lower: Array<{ key: string; ratio: number }>;
  /** Geometric mean over endpoints of (high / low), and whether it is itself lower. */
  overall: { ratio: number; lower: boolean };
  /** Pooled standard deviation of log(req/s) between rounds; null with single rounds. */
  noise: number | null;
}

const Z_ENDPOINT = 3;
const Z_OVERALL = 2;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function pooledLogSd(groups: number[][]): number | null {
  let squares = 0;
  let freedom = 0;
  for (const group of groups) {
    if (group.length < 2) continue;
    const logs = group.map(Math.log);
    const m = mean(logs);
    squares += logs.reduce((s, x) => s + (x - m) ** 2, 0);
    freedom += logs.length - 1;
  }
  return freedom > 0 ? Math.sqrt(squares / freedom) : null;
}

export function compareThroughput(endpoints: LevelRounds[]): ThroughputVerdict {
  const rows = endpoints.filter((e) => e.low.length > 0 && e.high.length > 0 && [...e.low, ...e.high].every((x) => x > 0));
  const noise = pooledLogSd(rows.flatMap((e) => [e.low, e.high]));
  const diffs = rows.map((e) => {
    const diff = mean(e.high.map(Math.log)) - mean(e.low.map(Math.log));
    const se = noise === null ? 0 : noise * Math.sqrt(1 / e.high.length + 1 / e.low.length);
    return { key: e.key, diff, se };
  });
  const lower = diffs.filter((d) => d.diff < -Z_ENDPOINT * d.se).map((d) => ({ key: d.key, ratio: Math.exp(d.diff) }));
  const meanDiff = diffs.length ? mean(diffs.map((d) => d.diff)) : 0;
  const meanSe = diffs.length ? Math.sqrt(diffs.reduce((s, d) => s + d.se ** 2, 0)) / diffs.length : 0;
  return { lower, overall: { ratio: Math.exp(meanDiff), lower: meanDiff < -Z_OVERALL * meanSe }, noise };
}
