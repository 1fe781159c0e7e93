/**
 * The browser's JavaScript time while a page starts: the page loaded in a fresh browser context
 * (empty cache, new renderer) under the DevTools CPU profiler, until it has hydrated and 1.5 s
 * have passed. Reports, per page, the median of the runs' sampled JavaScript time and the
 * functions that took the most of it (self time, summed over the runs). Unthrottled: this
 * machine's milliseconds, which Lighthouse's mobile profile reads about four times longer.
 *
 *   npx tsx bench/page-start.ts                          # build-bench, /, /browse-gigs and a gig, 5 runs each
 *   npx tsx bench/page-start.ts --build build --runs 9 --pages /,/auth
 *   npx tsx bench/page-start.ts --before /path/to/other/build   # both builds, taking turns run by run
 *   npx tsx bench/page-start.ts --throttle 4             # the CPU slowed 4x (Lighthouse's mobile), with long tasks
 *
 * With `--throttle`, each load also reports the browser's long tasks (over 50 ms, a
 * PerformanceObserver from the page's start): the longest, and their time past 50 ms summed (the
 * blocking time Lighthouse counts, here up to 1.5 s after hydration).
 * Function names are the built files' (minified); build with `minify: false` to read them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { chromePath } from "./lib/lighthouse.ts";
import { projectRoot, startServer, type BenchServer } from "./lib/server.ts";

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(option("--runs") ?? "5");
const builds = [option("--before"), option("--build") ?? "build-bench"].filter((b): b is string => Boolean(b));
const pageList = (option("--pages") ?? "/,/browse-gigs,gig").split(",");
const throttle = Number(option("--throttle") ?? "1");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Load {
  total: number;
  self: Map<string, number>;
  /** The long tasks' durations (ms), with `--throttle` only. */
  longTasks: number[];
}

/** One load of `url`: the sampled JavaScript milliseconds, each function's self time, and the long tasks. */
async function profileLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    await page.goto(new URL("/robots.txt", url).href);
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
      // An init script runs before the page's own, outside its content security policy.
      await page.addInitScript(() => {
        const tasks: number[] = [];
        (window as unknown as { longTasks: number[] }).longTasks = tasks;
        new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: "longtask", buffered: true });
      });
    }
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.waitForTimeout(1500);
    const longTasks = throttle > 1 ? await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks) : [];
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
    const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    const self = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const frame = nodes.get(id)!;
      if (frame.functionName === "(idle)" || frame.functionName === "(program)") return;
      // Each sample stands for the time until the next one.
      const ms = (profile.timeDeltas[i + 1] ?? 100) / 1000;
      const name = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop() || "(native)"}:${frame.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + ms);
      total += ms;
    });
    return { total, self, longTasks };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const servers: BenchServer[] = [];
const dataDirs: string[] = [];
const browser = await chromium.launch({ executablePath: chromePath() ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (const build of builds) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "dg-page-start-"));
    dataDirs.push(dataDir);
    servers.push(await startServer({ kind: "pglite", dataDir }, path.resolve(projectRoot, build), { SEED_DEMO_DATA: "true" }));
  }
  for (const pagePath of pageList) {
    const results = builds.map(() => ({ totals: [] as number[], self: new Map<string, number>(), longest: [] as number[], blocking: [] as number[] }));
    for (let run = 0; run < runs; run++) {
      for (const [i, server] of servers.entries()) {
        // "gig": the first gig Browse Gigs lists (the demo data's gigs differ per database).
        const target = pagePath === "gig" ? (await (await fetch(`${server.url}/browse-gigs`)).text()).match(/\/gig\/[\w-]+/)![0] : pagePath;
        const { total, self, longTasks } = await profileLoad(browser, server.url + target);
        results[i]!.totals.push(total);
        results[i]!.longest.push(Math.max(0, ...longTasks));
        results[i]!.blocking.push(longTasks.reduce((sum, ms) => sum + Math.max(0, ms - 50), 0));
        for (const [name, ms] of self) results[i]!.self.set(name, (results[i]!.self.get(name) ?? 0) + ms);
      }
    }
    for (const [i, build] of builds.entries()) {
      const { totals, self, longest, blocking } = results[i]!;
      const list = (values: number[]) => values.map((t) => t.toFixed(0)).join(", ");
      console.log(`${pagePath} (${build}): JavaScript ${median(totals).toFixed(1)} ms (median of ${runs}; ${list(totals)})`);
      if (throttle > 1) {
        console.log(`  longest task ${median(longest).toFixed(0)} ms (${list(longest)}); blocking ${median(blocking).toFixed(0)} ms (${list(blocking)})`);
      }
      for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${(ms / runs).toFixed(2).padStart(6)} ms  ${name}`);
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
