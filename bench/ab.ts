/**
 * `npm run bench:ab -- --before DIR`: the signed-in pages (lib/signed-in.ts) on two servers in
 * one run, the server of another checkout (DIR: `git archive <commit> | tar -x -C DIR`, with
 * `node_modules` linked in) and this checkout's, both pinned to the same core, taking turns
 * page by page and round by round (the order flips every round), so that the machine's
 * drifting load falls on both alike. Prints the CPU per request (from each server's /metrics),
 * req/s and p99 of every run, and the ratio of the medians. Both serve this checkout's build
 * unless `--before-build DIR` names another (the server is what differs between them when
 * only server/ changed).
 *
 *   npm run bench:ab -- --before /tmp/before --rounds 3 --duration 10   # 10,000 gigs, dg_bench_10000 or DATABASE_URL
 *   npm run bench:ab -- --before . --node-args-after "--max-semi-space-size=64"   # node's options, on the "after" server only
 *   npm run bench:ab -- --before . --before-node /usr/bin/node   # the same server on another node binary
 *   npm run bench:ab -- --before . --before-build build-base --only "my leads"   # pages whose name has the words
 */
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../server/db/client.ts";
import { listOpenGigs, parseBrowseFilters } from "../server/gigs/browse.ts";
import { benchDatabaseUrl, DEFAULT_PG_SERVER, generate } from "./generate.ts";
import { canPin, onLoadCores, SERVER_CPUS } from "./lib/cpu.ts";
import { load } from "./lib/load.ts";
import { METRICS_TOKEN } from "./lib/metrics.ts";
import { projectRoot, startServer, type BenchServer } from "./lib/server.ts";
import { check, measured, refreshCookies, signedInPages, warmUp, type SignedInRun, type SignedInTarget } from "./lib/signed-in.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const beforeRoot = option("--before");
if (!beforeRoot || !existsSync(path.join(beforeRoot, "server/main.ts"))) throw new Error("bench: --before DIR, a checkout with server/main.ts and node_modules");
const gigCount = Number(option("--gigs", "10000"));
const rounds = Number(option("--rounds", "3"));
const duration = Math.min(60, Number(option("--duration", "10"))); // within the signed cookie's 60 s
const buildDir = path.resolve(projectRoot, process.env.BUILD_DIR ?? "build-bench");
const beforeBuild = path.resolve(option("--before-build", buildDir)!);
const pin = canPin();
/** node's own options for the "after" server (space-separated): to compare a V8 or node setting on the same code. */
const nodeArgsAfter = (option("--node-args-after") ?? "").split(" ").filter(Boolean);
/** the node binary of the "before" server: to compare two versions of node on the same code. */
const beforeNode = option("--before-node", process.execPath)!;
/** Only the pages whose name (lib/signed-in.ts) contains this. */
const only = option("--only");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const databaseUrl = process.env.DATABASE_URL ?? (await benchDatabaseUrl(process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER, gigCount));
await generate({ kind: "postgres", location: databaseUrl }, gigCount);
const handle = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 1 });
const firstPage = await listOpenGigs(handle.db, parseBrowseFilters(new URLSearchParams()));
await handle.close();
const listed = { what: "the gigs of Browse Gigs", texts: firstPage.items.map((g) => g.id) };

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const cpus = pin ? SERVER_CPUS : undefined;
const database = { kind: "postgres", url: databaseUrl } as const;
const sides: Array<{ name: string; server: BenchServer; pages: SignedInTarget[]; runs: SignedInRun[][] }> = [];
try {
  for (const [name, root, build, nodeArgs, node] of [
    ["before", path.resolve(beforeRoot), beforeBuild, [], beforeNode],
    ["after", projectRoot, buildDir, nodeArgsAfter, process.execPath],
  ] as const) {
    const server = await startServer(database, build, { METRICS_TOKEN }, cpus, "server/main.ts", { root, nodeArgs: [...nodeArgs], node });
    // Each server its own sign-ins: a signed cookie's version is its process's (decision 0053).
    const pages = (await signedInPages(server, client, listed)).filter((page) => !only || page.name.includes(only));
    sides.push({ name, server, pages, runs: pages.map(() => []) });
    for (const page of pages) await check(server, page.path, page.person.cookie, page.check);
  }
  // Each server warmed on each page before the first timed run (lib/signed-in.ts).
  for (const side of sides) for (const page of side.pages) await onLoadCores(pin, () => warmUp(side.server, page));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < sides[0]!.pages.length; i++) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        const page = side.pages[i]!;
        await refreshCookies(side.server, page.person);
        const run = await onLoadCores(pin, () => measured(side.server, () => load(side.server.url, page.path, 10, duration, { cookie: page.person.cookie })));
        side.runs[i]!.push(run);
        console.log(`  round ${round + 1} ${side.name.padEnd(6)} ${page.name.padEnd(28)} ${String(run.rps).padStart(6)} req/s  p99 ${run.p99} ms  cpu ${run.cpuMsPerRequest} ms/req  errors ${run.errors + run.non2xx + run.timeouts}`);
      }
    }
  }
  for (const side of sides) for (const page of side.pages) await check(side.server, page.path, page.person.cookie, page.check);
} finally {
  for (const side of sides) await side.server.stop();
  await client.end();
}

// Also each round's pair (the two runs next to each other in time), whose ratio the machine's
// drift between rounds does not move: its median and spread beside the ratio of the medians.
console.log(
  "\n| Page, 10 connections | before: CPU ms/req per round | after | CPU/req after / before (medians) | each round's after / before: median (min-max) |\n|---|---|---|---|---|",
);
for (const [i, page] of sides[0]!.pages.entries()) {
  const [before, after] = sides.map((s) => s.runs[i]!.map((r) => r.cpuMsPerRequest));
  const paired = after!.map((value, round) => value / before![round]!);
  const spread = `${median(paired).toFixed(2)} (${Math.min(...paired).toFixed(2)}-${Math.max(...paired).toFixed(2)})`;
  console.log(`| ${page.path} | ${before!.join(", ")} | ${after!.join(", ")} | ${(median(after!) / median(before!)).toFixed(2)} | ${spread} |`);
}
