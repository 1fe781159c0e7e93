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
 *
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

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** One load of `url`: the sampled JavaScript milliseconds, and each function's self time. */
async function profileLoad(browser: Browser, url: string): Promise<{ total: number; self: Map<string, number> }> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    await page.goto(new URL("/robots.txt", url).href);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.waitForTimeout(1500);
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
    return { total, self };
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
    const results = builds.map(() => ({ totals: [] as number[], self: new Map<string, number>() }));
    for (let run = 0; run < runs; run++) {
      for (const [i, server] of servers.entries()) {
        // "gig": the first gig Browse Gigs lists (the demo data's gigs differ per database).
        const target = pagePath === "gig" ? (await (await fetch(`${server.url}/browse-gigs`)).text()).match(/\/gig\/[\w-]+/)![0] : pagePath;
        const { total, self } = await profileLoad(browser, server.url + target);
        results[i]!.totals.push(total);
        for (const [name, ms] of self) results[i]!.self.set(name, (results[i]!.self.get(name) ?? 0) + ms);
      }
    }
    for (const [i, build] of builds.entries()) {
      const { totals, self } = results[i]!;
      console.log(`${pagePath} (${build}): JavaScript ${median(totals).toFixed(1)} ms (median of ${runs}; ${totals.map((t) => t.toFixed(0)).join(", ")})`);
      for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${(ms / runs).toFixed(2).padStart(6)} ms  ${name}`);
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
