/**
 * `npm run bench:profile`: where a signed-in request's CPU goes (issue 35). Starts the built
 * server in production mode under `node --cpu-prof`, drives the signed-in pages of
 * lib/signed-in.ts (Browse Gigs, My Gigs, My Leads, Notifications and the pages added since) with autocannon at 10
 * connections for `--duration` seconds each, stops the server (its profile is written at exit)
 * and reduces the profile, page by page over each load run's window (start-up excluded), with
 * lib/cpu-profile.ts: tables by package/file and by function in ms per request, the folded
 * stacks and a flame graph SVG per page, in `--out` (default bench/results/profile-<date>/).
 *
 *   npm run bench:profile                            # 10,000 gigs in dg_bench_10000, 20 s a page
 *   DATABASE_URL=postgres://.../db npm run bench:profile -- --no-build --duration 10
 *   npm run bench:profile -- --analyse --out DIR     # the tables again from DIR's profile and windows.json
 *
 * Options: --gigs N (default 10000), --duration S (default 20), --no-build, --out DIR,
 * --no-pin, --only NAME[,NAME] (the pages whose names hold one of them). Needs PostgreSQL (the signed-in case does). The profiler costs some CPU itself:
 * compare the CPU per request printed here only with another profiled run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../server/db/client.ts";
import { listOpenGigs, parseBrowseFilters } from "../server/gigs/browse.ts";
import { benchDatabaseUrl, DEFAULT_PG_SERVER, generate } from "./generate.ts";
import { breakdown, categories, flameGraphSvg, foldedText, table, type CpuProfile } from "./lib/cpu-profile.ts";
import { canPin, LOAD_CPUS, onLoadCores, SERVER_CPUS } from "./lib/cpu.ts";
import { warm, load } from "./lib/load.ts";
import { METRICS_TOKEN } from "./lib/metrics.ts";
import { projectRoot, startServer } from "./lib/server.ts";
import { check, describeRun, measured, PHONE_VERIFICATION_ON, refreshCookies, signedInPages } from "./lib/signed-in.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const gigCount = Number(option("--gigs", "10000"));
// At most 60 s: the signed session cookie's life (lib/signed-in.ts, refreshCookies).
const duration = Math.min(60, Number(option("--duration", "20")));
const buildDir = process.env.BUILD_DIR ?? "build-bench";
const out = path.resolve(option("--out", path.join(projectRoot, "bench/results", `profile-${new Date().toISOString().slice(0, 10)}`)));
const pin = !argv.includes("--no-pin") && canPin();
// `--only thread,inbox`: the pages whose names hold one of these words.
const only = argv.includes("--only") ? option("--only", "").split(",").filter(Boolean) : null;
const log = (line: string) => console.log(line);
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface RunWindow {
  name: string;
  path: string;
  fromUs: number;
  toUs: number;
  requests: number;
  cpuMsPerRequest: number;
}

/** Builds, generates, profiles the server under load; the load runs' windows go to windows.json. */
async function profileRuns(profileDir: string): Promise<RunWindow[]> {
  const windows: RunWindow[] = [];
  if (!argv.includes("--no-build") || !existsSync(path.join(projectRoot, buildDir, "server/index.js"))) {
    log(`bench: building into ${buildDir}`);
    const built = spawnSync("npx", ["--no-install", "react-router", "build"], { cwd: projectRoot, stdio: "inherit", env: { ...process.env, BUILD_DIR: buildDir } });
    if (built.status !== 0) throw new Error("build failed");
  }

  const databaseUrl = process.env.DATABASE_URL ?? (await benchDatabaseUrl(process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER, gigCount));
  await generate({ kind: "postgres", location: databaseUrl }, gigCount, log);
  const handle = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 1 });
  const firstPage = await listOpenGigs(handle.db, parseBrowseFilters(new URLSearchParams()));
  await handle.close();
  const listed = { what: "the gigs of Browse Gigs", texts: firstPage.items.map((g) => g.id) };

  mkdirSync(profileDir, { recursive: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const server = await startServer(
    { kind: "postgres", url: databaseUrl },
    buildDir,
    { METRICS_TOKEN, ...PHONE_VERIFICATION_ON },
    pin ? SERVER_CPUS : undefined,
    "server/main.ts",
    { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] },
  );
  try {
    const pages = (await signedInPages(server, client, listed, { later: true, databaseUrl })).filter((page) => !only || only.some((name) => page.name.includes(name)));
    for (const page of pages) {
      await check(server, page.path, page.person.cookie, page.check);
      await warm(server.url, page.path, 20, { cookie: page.person.cookie });
    }
    for (const page of pages) {
      await refreshCookies(server, page.person);
      const fromUs = nowUs();
      const run = await onLoadCores(pin, () => measured(server, () => load(server.url, page.path, 10, duration, { cookie: page.person.cookie })));
      windows.push({ name: page.name, path: page.path, fromUs, toUs: nowUs(), requests: run.requests, cpuMsPerRequest: run.cpuMsPerRequest });
      log(`  profiled ${page.name.padEnd(28)} ${describeRun(run)}`);
    }
    for (const page of pages) await check(server, page.path, page.person.cookie, page.check);
  } finally {
    await server.stop();
    await client.end();
  }
  return windows;
}

const profileDir = path.join(out, "cpuprofile");
const windowsFile = path.join(out, "windows.json");
if (!argv.includes("--analyse")) writeFileSync(windowsFile, JSON.stringify(await profileRuns(profileDir), null, 2));
const windows = JSON.parse(readFileSync(windowsFile, "utf8")) as RunWindow[];
// The main thread's (thread 0); workers write their own.
const file = readdirSync(profileDir).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f)).sort().at(-1);
if (!file) throw new Error(`bench: the server wrote no .cpuprofile into ${profileDir}`);
const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile;
const report: string[] = [`# CPU profile of the signed-in pages (${new Date().toISOString()}, ${gigCount} gigs, ${duration} s a page at 10 connections)`, "", `Profile: cpuprofile/${file}`, ""];
for (const w of windows) {
  const b = breakdown(profile, projectRoot, w);
  const slug = w.path.replace(/\W+/g, "") || "root";
  writeFileSync(path.join(out, `${slug}.folded`), foldedText(b.folded));
  writeFileSync(path.join(out, `${slug}.svg`), flameGraphSvg(b.folded, `${w.name}: ${w.requests} requests, ${b.busyMs.toFixed(0)} ms busy`));
  report.push(
    `## ${w.name} (${w.path}): ${w.requests} requests, ${(b.busyMs / Math.max(1, w.requests)).toFixed(2)} ms sampled busy per request (/metrics: ${w.cpuMsPerRequest} ms CPU per request), idle ${b.idleMs.toFixed(0)} ms`,
    "",
    "| what | ms/req | % |\n|---|---|---|",
    ...categories(b.folded).map((c) => `| ${c.name} | ${(c.ms / Math.max(1, w.requests)).toFixed(2)} | ${((100 * c.ms) / b.busyMs).toFixed(1)}% |`),
    "",
    table("package / file", b.groups, b.busyMs, w.requests, 20),
    "",
    table("function", b.functions, b.busyMs, w.requests, 30),
    "",
    `Flame graph: ${slug}.svg (folded stacks: ${slug}.folded)`,
    "",
  );
}
writeFileSync(path.join(out, "profile.md"), report.join("\n"));
log(report.join("\n"));
log(`bench: written to ${out} (server pinned to ${pin ? SERVER_CPUS : "no core"}, load on ${pin ? LOAD_CPUS : "any core"})`);
