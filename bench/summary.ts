/** The budget of issue 9, checked against a run's results, and the summary printed at the end. */
import type { LighthouseResult } from "./lib/lighthouse.ts";
import type { MessagesResult } from "./lib/messages.ts";
import type { LoadResult } from "./lib/load.ts";
import type { RawSqlResult } from "./lib/raw-sql.ts";
import { compareThroughput } from "./lib/throughput.ts";
import type { PageWeight } from "./lib/weight.ts";

export interface Results {
  options: { gigs: number; connections: number[]; rounds?: number };
  machine: { loadAverageAtStart: number[] };
  loadAverageAtEnd: number[];
  load: Record<string, LoadResult[]>;
  raw: Array<RawSqlResult & { search: string }>;
  weights: PageWeight[];
  lighthouse: LighthouseResult[] | { error: string };
  growth: Record<string, Record<string, LoadResult[]>>;
  budget?: BudgetLine[];
}

export interface BudgetLine {
  rule: string;
  pass: boolean | null;
  detail: string;
}

export const BUDGET = {
  pageP99Ms: 100,
  dataP99Ms: 50,
  browseDataVsStatic: 0.25,
  growthP99Ratio: 1.5,
  firstVisitJsGzipBytes: 150 * 1024,
  lighthousePerformance: 90,
  lighthouseAccessibility: 100,
};

/** Of several rounds, the one with the median p99 (a single round is itself). */
export function representative(runs: LoadResult[] | undefined): LoadResult | undefined {
  if (!runs || runs.length === 0) return undefined;
  const sorted = [...runs].sort((a, b) => a.p99 - b.p99);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Failed requests; a run that completed no request at all counts as one failure. */
const errorsOf = (r: LoadResult) => r.errors + r.timeouts + r.non2xx + (r.requests === 0 ? 1 : 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function byLevel(load: Results["load"], level: number) {
  return Object.entries(load)
    .filter(([key]) => key.endsWith(`@${level}`))
    .map(([key, runs]) => ({ key: key.slice(0, key.lastIndexOf("@")), result: representative(runs)! }));
}

export function evaluateBudget(r: Results): BudgetLine[] {
  const lines: BudgetLine[] = [];
  const [low = 10, high = 50] = r.options.connections;
  const atLow = byLevel(r.load, low);
  const atHigh = byLevel(r.load, high);
  if (atLow.length > 0) {
    for (const [kind, limit] of [["page", BUDGET.pageP99Ms], ["data", BUDGET.dataP99Ms]] as const) {
      const rows = atLow.filter((x) => x.key.startsWith(`${kind}:`));
      const over = rows.filter((x) => x.result.p99 > limit);
      const worst = rows.reduce((a, b) => (b.result.p99 > (a?.result.p99 ?? -1) ? b : a), rows[0]);
      lines.push({
        rule: `every ${kind} p99 <= ${limit} ms at ${low} connections`,
        pass: over.length === 0,
        detail: over.length ? `over: ${over.map((x) => `${x.key.slice(kind.length + 1)} ${x.result.p99} ms`).join(", ")}` : `worst ${worst?.key} ${worst?.result.p99} ms`,
      });
    }
    const staticRps = atLow.find((x) => x.key.startsWith("static:"))?.result.rps;
    const browseRps = atLow.find((x) => x.key === "data:browse gigs")?.result.rps;
    if (staticRps && browseRps) {
      lines.push({
        rule: `browse-gigs data throughput >= ${BUDGET.browseDataVsStatic * 100}% of the static file's`,
        pass: browseRps >= BUDGET.browseDataVsStatic * staticRps,
        detail: `${browseRps} / ${staticRps} req/s = ${((100 * browseRps) / staticRps).toFixed(1)}%`,
      });
    }
  }
  if (atHigh.length > 0) {
    const withErrors = atHigh.filter((x) => errorsOf(x.result) > 0);
    lines.push({
      rule: `no errors at ${high} connections`,
      pass: withErrors.length === 0,
      detail: withErrors.length ? withErrors.map((x) => `${x.key} ${errorsOf(x.result)}`).join(", ") : "none",
    });
    const verdict = compareThroughput(
      atHigh.map((x) => ({
        key: x.key,
        low: (r.load[`${x.key}@${low}`] ?? []).map((run) => run.rps),
        high: (r.load[`${x.key}@${high}`] ?? []).map((run) => run.rps),
      })),
    );
    const pct = (ratio: number) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)}%`;
    const noise = verdict.noise === null ? "single rounds, compared plainly" : `round-to-round noise ${(verdict.noise * 100).toFixed(1)}%`;
    lines.push({
      rule: `throughput at ${high} connections >= at ${low} (beyond the run's own noise, lib/throughput.ts)`,
      pass: verdict.lower.length === 0 && !verdict.overall.lower,
      detail: [
        `all endpoints ${pct(verdict.overall.ratio)}${verdict.overall.lower ? " (lower)" : ""}`,
        noise,
        verdict.lower.length ? `lower: ${verdict.lower.map((x) => `${x.key} ${pct(x.ratio)}`).join(", ")}` : "no endpoint lower",
      ].join("; "),
    });
  }
  const sizes = Object.keys(r.growth ?? {}).map(Number).sort((a, b) => a - b);
  if (sizes.length >= 2) {
    const small = r.growth[String(sizes[0])]!;
    const large = r.growth[String(sizes.at(-1))]!;
    const ratios = Object.keys(large).map((key) => {
      const a = representative(small[key])?.p99 ?? NaN;
      const b = representative(large[key])?.p99 ?? NaN;
      return { key: key.slice(0, key.lastIndexOf("@")), ratio: b / Math.max(a, 1), a, b };
    });
    const over = ratios.filter((x) => !(x.ratio <= BUDGET.growthP99Ratio));
    lines.push({
      rule: `p99 at ${sizes.at(-1)} gigs <= ${BUDGET.growthP99Ratio} x p99 at ${sizes[0]}`,
      pass: over.length === 0,
      detail: ratios.map((x) => `${x.key} ${x.a}->${x.b} ms (x${x.ratio.toFixed(2)})`).join("; "),
    });
  }
  for (const page of ["/", "/browse-gigs"]) {
    const w = r.weights.find((x) => x.path === page);
    if (w) {
      lines.push({
        rule: `first-visit JavaScript on ${page} <= ${kb(BUDGET.firstVisitJsGzipBytes)} gzip`,
        pass: w.js.gzipBytes <= BUDGET.firstVisitJsGzipBytes,
        detail: `${kb(w.js.gzipBytes)} in ${w.js.files} files`,
      });
    }
  }
  if (Array.isArray(r.lighthouse)) {
    for (const l of r.lighthouse) {
      lines.push({
        rule: `Lighthouse ${l.path.startsWith("/gig/") ? "/gig/<id>" : l.path}: performance >= ${BUDGET.lighthousePerformance}, accessibility ${BUDGET.lighthouseAccessibility}`,
        pass: (l.performance ?? 0) >= BUDGET.lighthousePerformance && (l.accessibility ?? 0) >= BUDGET.lighthouseAccessibility,
        detail: `performance ${l.performance}, accessibility ${l.accessibility}${l.failing.length ? `; losing points: ${l.failing.join(", ")}` : ""}`,
      });
    }
  } else if (r.lighthouse && "error" in r.lighthouse) {
    lines.push({ rule: "Lighthouse", pass: null, detail: `not run: ${r.lighthouse.error}` });
  }
  return lines;
}

export function printSummary(r: Results) {
  const [low = 10, high = 50] = r.options.connections;
  const atLow = byLevel(r.load, low);
  const atHigh = byLevel(r.load, high);
  const staticRps = atLow.find((x) => x.key.startsWith("static:"))?.result.rps;
  if (atLow.length > 0) {
    console.log(`\n== Load (${r.options.gigs} gigs), latency in ms; "x static" = throughput / the static file's`);
    console.log(`${"endpoint".padEnd(36)} ${"req/s".padStart(7)} ${"p50".padStart(5)} ${"p97.5".padStart(6)} ${"p99".padStart(5)} ${"x static".padStart(8)} | @${high}: ${"req/s".padStart(7)} ${"p99".padStart(5)} err`);
    for (const { key, result } of atLow) {
      const h = atHigh.find((x) => x.key === key)?.result;
      console.log(
        `${key.padEnd(36)} ${String(result.rps).padStart(7)} ${String(result.p50).padStart(5)} ${String(result.p97_5).padStart(6)} ${String(result.p99).padStart(5)} ${(staticRps ? (result.rps / staticRps).toFixed(3) : "-").padStart(8)} |      ${String(h?.rps ?? "-").padStart(7)} ${String(h?.p99 ?? "-").padStart(5)} ${h ? errorsOf(h) : "-"}`,
      );
    }
  }
  for (const raw of r.raw ?? []) {
    const app = atLow.find((x) => x.key === (raw.search ? "data:browse gigs: search" : "data:browse gigs"))?.result;
    console.log(
      `raw browse SQL${raw.search ? " (search)" : ""}, ${raw.clients} pg clients: ${raw.qps} q/s, p99 ${raw.p99} ms${app ? `; the data request reaches ${((100 * app.rps) / raw.qps).toFixed(1)}% of it` : ""}`,
    );
  }
  const sizes = Object.keys(r.growth ?? {}).map(Number).sort((a, b) => a - b);
  if (sizes.length > 0) {
    console.log(`\n== Growth: p99 ms (req/s) at ${sizes.join(" / ")} gigs`);
    const keys = Object.keys(r.growth[String(sizes[0])] ?? {});
    for (const key of keys) {
      const cells = sizes.map((s) => {
        const x = representative(r.growth[String(s)]?.[key]);
        return x ? `${x.p99} (${x.rps})` : "-";
      });
      console.log(`${key.padEnd(36)} ${cells.map((c) => c.padStart(14)).join(" ")}`);
    }
  }
  if (r.weights.length > 0) {
    console.log("\n== First visit: JavaScript and CSS, gzip");
    for (const w of r.weights) console.log(`${w.path.padEnd(50)} JS ${kb(w.js.gzipBytes).padStart(9)} (${w.js.files} files)  CSS ${kb(w.css.gzipBytes).padStart(8)}  HTML ${kb(w.htmlGzipBytes)}`);
  }
  if (Array.isArray(r.lighthouse) && r.lighthouse.length > 0) {
    console.log("\n== Lighthouse (mobile, simulated throttling)");
    for (const l of r.lighthouse) console.log(`${l.path.padEnd(50)} performance ${l.performance}  accessibility ${l.accessibility}  LCP ${l.metrics.largestContentfulPaintMs} ms  TBT ${l.metrics.totalBlockingTimeMs} ms`);
  }
  console.log(`\n== Budget (load average ${r.machine.loadAverageAtStart.map((x) => x.toFixed(1)).join(" ")} at start, ${r.loadAverageAtEnd.map((x) => x.toFixed(1)).join(" ")} at end)`);
  for (const line of r.budget ?? []) console.log(`${line.pass === null ? "n/a " : line.pass ? "PASS" : "FAIL"}  ${line.rule}: ${line.detail}`);
}

/**
 * The messages case (issue 52): per size, the thread and the inbox; at the largest size the
 * thread against signed-in Browse Gigs and the inbox against My Gigs, timed in turns on one
 * server, as req/s ratios per round (their median judged), and the thread's p99 closed and open.
 */
export function printMessagesSummary(m: MessagesResult, loadAtStart: number[], loadAtEnd: number[]) {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
  const line = (runs: LoadResult[]) => `${median(runs.map((r) => r.rps))} req/s, p99 ${representative(runs)!.p99} ms`;
  console.log(`\n== Messages (load average ${loadAtStart.map((x) => x.toFixed(1)).join(" ")} at start, ${loadAtEnd.map((x) => x.toFixed(1)).join(" ")} at end), medians of ${m.sizes[0]?.thread.length ?? 0} round(s)`);
  for (const size of m.sizes) {
    console.log(`${String(size.messages).padStart(8)} messages: thread of 500 ${line(size.thread)}; inbox ${line(size.inbox)}; sends p99 ${size.sendMs.p99} ms`);
    for (const [name, page, other, goal] of [
      ["thread / browse gigs", size.thread, size.browseGigs, "thread"],
      ["inbox / my gigs", size.inbox, size.myGigs, "inbox"],
    ] as const) {
      if (!other?.length) continue;
      const ratio = median(page.map((r, i) => r.rps / (other[i]?.rps ?? NaN)));
      console.log(`${ratio >= 1 ? "PASS" : "FAIL"}  ${name.padEnd(22)} ${ratio.toFixed(2)} (per round: ${page.map((r, i) => `${r.rps}/${other[i]?.rps}`).join(", ")}); ${goal === "thread" ? "browse gigs" : "my gigs"} ${line(other)}`);
    }
    if (size.browseGigs?.length) {
      const p99 = representative(size.thread)!.p99;
      console.log(`${p99 <= BUDGET.pageP99Ms ? "PASS" : "FAIL"}  thread p99 <= ${BUDGET.pageP99Ms} ms at 10 connections: ${p99} ms`);
    }
    if (size.threadOpen) {
      const open = size.threadOpen;
      console.log(`${open.p99 <= 60 ? "PASS" : "FAIL"}  thread p99 <= 60 ms in the open loop at ${open.offeredRate}/s: ${open.p99} ms (${open.rps} req/s answered, cpu ${open.cpuMsPerRequest} ms/req)`);
    }
  }
  console.log(`live A -> B: p50 ${m.liveMs.p50} p99 ${m.liveMs.p99} ms over ${m.liveMs.sends} sends`);
}
