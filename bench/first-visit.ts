/**
 * `npm run bench:weight`: the first-visit JavaScript of every public page against the budget
 * (150 KB gzip), on the built app with the demo data (embedded PGlite in a temp dir, no
 * generated database), so it runs in a minute. Reads the pages' server-rendered HTML and sums
 * the gzip -9 size of every script, modulepreload and static import it loads (lib/weight.ts).
 * Exits 1 when a page is over budget.
 *
 *   npm run bench:weight                       # builds into BUILD_DIR (default build-bench) first
 *   npm run bench:weight -- --no-build         # the build already there
 *   npm run bench:weight -- --lighthouse       # and Lighthouse (mobile) on /, /browse-gigs, a gig page, a profile
 *   npm run bench:weight -- --lighthouse --lighthouse-runs 5   # each page's median run of 5 (default 1)
 *   npm run bench:weight -- --json out.json    # and the figures as JSON
 *   npm run bench:weight -- --no-build --before /path/to/other/build
 *                                              # side by side with another build (e.g. main's), in one run
 *   npm run bench:weight -- --no-build --before /path/to/other/build --rounds 5
 *                                              # Lighthouse with the two builds taking turns, page by page,
 *                                              # 5 rounds; each page's median score and metrics per build
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runLighthouse, type LighthouseResult } from "./lib/lighthouse.ts";
import { projectRoot, startServer } from "./lib/server.ts";
import { pageWeight, type PageWeight } from "./lib/weight.ts";

export const FIRST_VISIT_JS_BUDGET_KB = 150;

/** Lighthouse's pages: the first of publicPages' (/, /browse-gigs, a gig, a digger's profile). */
const LIGHTHOUSE_PAGES = 4;

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const defaultBuildDir = process.env.BUILD_DIR ?? "build-bench";
const lighthouseRuns = Math.max(1, Number(option("--lighthouse-runs") ?? "1"));
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** The public pages, with a gig and a digger profile picked from the demo data's lists. */
async function publicPages(baseUrl: string): Promise<string[]> {
  const first = async (listPath: string, pattern: RegExp) => {
    const html = await (await fetch(baseUrl + listPath)).text();
    const match = html.match(pattern);
    if (!match) throw new Error(`${listPath} links to no ${String(pattern)}: the demo data is missing`);
    return match[0].slice(0, -1);
  };
  const gig = await first("/browse-gigs", /\/gig\/[\w-]+"/);
  const digger = await first("/browse-diggers", /\/digger\/[\w.-]+"/);
  return ["/", "/browse-gigs", gig, digger, "/browse-diggers", "/contact", "/how-it-works", "/auth"];
}

export async function firstVisitWeights(options: { build: boolean; lighthouse: boolean; buildDir?: string }) {
  const buildDir = options.buildDir ?? defaultBuildDir;
  if (options.build) {
    const built = spawnSync("npx", ["--no-install", "react-router", "build"], { cwd: projectRoot, stdio: "inherit", env: { ...process.env, BUILD_DIR: buildDir } });
    if (built.status !== 0) throw new Error("build failed");
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "dg-weight-"));
  const server = await startServer({ kind: "pglite", dataDir }, buildDir, { SEED_DEMO_DATA: "true" });
  try {
    const pages = await publicPages(server.url);
    const weights: PageWeight[] = [];
    for (const page of pages) weights.push(await pageWeight(server.url, page, path.resolve(projectRoot, buildDir, "client")));
    const lighthouse = options.lighthouse ? await runLighthouse(server.url, pages.slice(0, LIGHTHOUSE_PAGES), lighthouseRuns) : [];
    return { weights, lighthouse };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Lighthouse on two builds taking turns, page by page and round by round, so that the machine's
 * slow minutes fall on both alike; each build serves its own copy of the demo data.
 */
async function interleavedLighthouse(buildDirs: string[], rounds: number): Promise<void> {
  const servers = [];
  const dataDirs: string[] = [];
  try {
    for (const buildDir of buildDirs) {
      const dataDir = mkdtempSync(path.join(tmpdir(), "dg-weight-"));
      dataDirs.push(dataDir);
      const server = await startServer({ kind: "pglite", dataDir }, buildDir, { SEED_DEMO_DATA: "true" });
      servers.push({ server, pages: (await publicPages(server.url)).slice(0, LIGHTHOUSE_PAGES) });
    }
    const results = buildDirs.map(() => Array.from({ length: LIGHTHOUSE_PAGES }, (): LighthouseResult[] => []));
    for (let round = 0; round < rounds; round++)
      for (let page = 0; page < LIGHTHOUSE_PAGES; page++)
        for (const [i, { server, pages }] of servers.entries()) results[i]![page]!.push(...(await runLighthouse(server.url, [pages[page]!], 1)));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(`\nLighthouse (mobile), ${rounds} rounds, builds taking turns; medians (each run's score in brackets)`);
    for (let page = 0; page < LIGHTHOUSE_PAGES; page++)
      for (const i of buildDirs.keys()) {
        const runs = results[i]![page]!;
        const of = (name: string) => median(runs.map((r) => r.metrics[name] ?? 0));
        console.log(
          `  ${runs[0]!.path.replace(/[0-9a-f-]{36}/, "{id}").padEnd(16)} ${(i === 0 ? "before" : "this").padEnd(7)} performance ${median(runs.map((r) => r.performance ?? 0))} [${runs.map((r) => r.performance).join(" ")}]` +
            `, first paint ${of("firstContentfulPaintMs")} ms, largest ${of("largestContentfulPaintMs")} ms, speed index ${of("speedIndexMs")} ms, blocking ${of("totalBlockingTimeMs")} ms, accessibility ${median(runs.map((r) => r.accessibility ?? 0))}`,
        );
        console.log(`      first paint waited for (last run): ${runs.at(-1)!.firstPaintWaitedFor.join(", ")}`);
        const failing = [...new Set(runs.flatMap((r) => r.failing))];
        if (failing.length > 0) console.log(`      audits below 0.9 in some run: ${failing.join(", ")}`);
      }
  } finally {
    for (const { server } of servers) await server.stop();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}` && option("--rounds")) {
  const before = option("--before");
  if (!before) throw new Error("bench:weight --rounds N compares two builds: add --before <build>");
  await interleavedLighthouse([path.resolve(before), path.resolve(defaultBuildDir)], Number(option("--rounds")));
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const before = option("--before");
  const earlier = before ? await firstVisitWeights({ build: false, lighthouse: flag("--lighthouse"), buildDir: path.resolve(before) }) : null;
  const { weights, lighthouse } = await firstVisitWeights({ build: !flag("--no-build"), lighthouse: flag("--lighthouse") });
  let over = 0;
  console.log(`\nfirst-visit JavaScript, gzip -9 (budget ${FIRST_VISIT_JS_BUDGET_KB} KB)${earlier ? `: ${before} -> ${defaultBuildDir}` : ""}`);
  weights.forEach((w, i) => {
    const fail = w.js.gzipBytes > FIRST_VISIT_JS_BUDGET_KB * 1024;
    if (fail) over++;
    // The pages in the same order in both runs (a gig and a profile are picked from each run's demo data).
    const was = earlier ? `${kb(earlier.weights[i]!.js.gzipBytes).padStart(6)} KB -> ` : "";
    console.log(`  ${w.path.replace(/[0-9a-f-]{36}/, "{id}").padEnd(16)} ${was}${kb(w.js.gzipBytes).padStart(6)} KB in ${String(w.js.files).padStart(2)} files  ${fail ? "OVER" : "ok"}`);
    console.log(`      largest: ${w.largestJs.map((f) => `${path.basename(f.file)} ${kb(f.gzipBytes)}`).join(", ")}`);
  });
  for (const [label, results] of [...(earlier ? [["before", earlier.lighthouse] as const] : []), ["after", lighthouse] as const]) {
    for (const l of results) {
      console.log(`Lighthouse (${label}) ${l.path}: performance ${l.performance}, accessibility ${l.accessibility}; ${l.failing.join(", ") || "no failing audits"}`);
    }
  }
  const out = option("--json");
  if (out) writeFileSync(out, JSON.stringify({ before: earlier, after: { weights, lighthouse } }, null, 2));
  process.exit(over > 0 ? 1 : 0);
}
