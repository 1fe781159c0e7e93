/**
 * `npm run bench`: builds the app (BUILD_DIR, default build-bench), fills a database with
 * N gigs, starts the built server in production mode and measures it: load tests of every
 * public page and data request at 10 and 50 connections, a no-database baseline (a static
 * file) and the browse query's raw SQL, page weight, Lighthouse, and optionally growth with
 * the data. Every request is checked before it is timed (status 200 and what the app's own
 * queries say the page shows, lib/expect.ts): a bench must not time an empty list or a
 * redirect. Writes bench/results/<date>.json and prints a summary against the budget.
 *
 *   npm run bench                           # PostgreSQL on BENCH_PG_SERVER, 100,000 gigs
 *   npm run bench -- --growth               # and 10k / 100k / 1M gigs for browse and search
 *   npm run bench -- --pglite --gigs 10000  # embedded PGlite (local mode) in a temp dir
 *   DATABASE_URL=postgres://.../db npm run bench   # an existing (empty or bench) database
 *   npm run bench -- --only signed-in --rounds 3 --duration 10   # 5 signed-in pages (the code step since issue 49), closed loop and half its rate offered
 *   npm run bench -- --only cluster --rounds 5      # 1 server and 2 (npm run cluster), signed in
 *   npm run bench -- --only alerts                  # lead alerts: a gig for 10,000 of 200,000 diggers (only when asked)
 *   npm run bench -- --only live                    # live updates: publish to stream p99 over 1,000 sends, RSS of 2,000 streams (only when asked;
 *                                                   # --live-sends N, --live-streams N)
 *   npm run bench -- --only messages                # inbox, a 500-message thread, sends, live A->B, plans (--messages N, default
 *                                                   # 1,000,000; --message-gigs N, default 170,000: 100,000 threads; --sends N)
 *   npm run bench -- --only lists                   # quotes and devices at 10,000 and --messages N rows, on the messages case's databases
 *                                                   # (--calls N, default 500)
 *   npm run bench -- --only push                    # 10,000 pushes through push.send to the local push service (--pushes N)
 *
 * Options: --gigs N, --duration S (per run, default 5), --rounds N (repeat each load test),
 * --connections 10,50, --growth [--growth-sizes 10000,100000,1000000], --no-build,
 * --no-lighthouse, --lighthouse-runs N, --only pages|data|... (comma list of sections:
 * load, raw, weight, lighthouse, signed-in, cluster, growth, alerts), --page-cache-seconds N (the server's page cache;
 * default: the production default, 10; 0 measures every request rendered), --no-pin (leave
 * the server and the load generator free to share every core; lib/cpu.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "../server/db/client.ts";
import { diggerProfiles, gigs } from "../server/db/schema.ts";
import { browseDiggers, browseFilters } from "../server/diggers/browse.ts";
import { browseGigsQuery, browseShape, browseValues, listOpenGigs, parseBrowseFilters, windowSearchQuery } from "../server/gigs/browse.ts";
import { statementWithValues } from "../server/db/prepared.ts";
import { clientRecordFigures } from "../server/gigs/client-record.ts";
import { clientRecordLines } from "../core/reply-guarantee.ts";
import { forSale } from "../server/leads/for-sale.ts";
import { getLandingShowcase } from "../server/marketing/landing.ts";
import { PAGE_SIZE } from "../server/pagination.ts";
import { benchDatabaseUrl, DEFAULT_PG_SERVER, generate, type Target } from "./generate.ts";
import { runLighthouse, type LighthouseResult } from "./lib/lighthouse.ts";
import { alertsCase, type AlertsResult } from "./lib/alerts.ts";
import { clusterCase, type ClusterResult } from "./lib/cluster.ts";
import { signedInCase, type SignedInPage } from "./lib/signed-in.ts";
import { liveCase } from "./lib/live.ts";
import { pushCase } from "./lib/push.ts";
import { listsCase } from "./lib/lists.ts";
import { messagesCase } from "./lib/messages.ts";
import { canPin, LOAD_CPUS, onLoadCores, SERVER_CPUS } from "./lib/cpu.ts";
import { assertAnswer, type Expectation } from "./lib/expect.ts";
import { load, warm, type LoadResult } from "./lib/load.ts";
import { rawSqlLoop, type RawSqlResult } from "./lib/raw-sql.ts";
import { projectRoot, startServer, type ServerDatabase } from "./lib/server.ts";
import { pageWeight, type PageWeight } from "./lib/weight.ts";
import { evaluateBudget, printMessagesSummary, printSummary } from "./summary.ts";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const numbers = (text: string) => text.split(",").map(Number).filter((n) => Number.isFinite(n) && n > 0);

const usePglite = flag("--pglite");
const gigCount = Number(option("--gigs", "100000"));
const duration = Number(option("--duration", "5"));
const rounds = Math.max(1, Number(option("--rounds", "1")));
const connectionLevels = numbers(option("--connections", "10,50"));
const growthSizes = numbers(option("--growth-sizes", usePglite ? "10000,100000" : "10000,100000,1000000"));
const lighthouseRuns = Math.max(1, Number(option("--lighthouse-runs", "1")));
const sections = new Set(option("--only", `load,raw,weight,lighthouse,signed-in,cluster${flag("--growth") ? ",growth" : ""}`).split(","));
if (flag("--no-lighthouse")) sections.delete("lighthouse");
const buildDir = process.env.BUILD_DIR ?? "build-bench";
const clientDir = path.join(projectRoot, buildDir, "client");
const pgServer = process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER;
const pageCacheSeconds = option("--page-cache-seconds", "");
// The signed-in case's open loop: the rates offered per page (Browse Gigs, My Gigs, My Leads,
// Notifications, the code step), to offer half of another build's best (issue 35); default half this run's.
const openRates = option("--open-rates", "") ? numbers(option("--open-rates", "")!) : undefined;
const serverEnv: Record<string, string> = pageCacheSeconds ? { PAGE_CACHE_SECONDS: pageCacheSeconds } : {};
const pin = !flag("--no-pin") && canPin();
const serverCpus = pin ? SERVER_CPUS : undefined;

/** The search terms and filters every run uses (they match a few percent of the rows). */
export const GIG_SEARCH = "garage";
export const DIGGER_SEARCH = "roof";
export const BUDGET_BAND = "1k-5k";

export interface Sample {
  gigId: string;
  diggerId: string;
  categoryId: string;
  /** Browse Gigs' second page. */
  nextCursor: string;
}

/** What an endpoint shows, checked before it is timed (lib/expect.ts). */
export type Shows =
  | { gigs: string } // Browse Gigs' page for this query: its 20 gigs
  | { diggers: string } // Browse Diggers' page for this query: its 20 diggers
  | { landing: true }
  | { gig: true }
  | { digger: true }
  | { file: true };

export interface Endpoint {
  name: string;
  kind: "page" | "data" | "static";
  path: string;
  shows: Shows;
  /** Filled in by `prepare` from the database, with the app's own queries. */
  expect?: Expectation;
}

export function endpoints(s: Sample): Endpoint[] {
  const page = (name: string, p: string, shows: Shows): Endpoint => ({ name, kind: "page", path: p, shows });
  const data = (name: string, p: string, shows: Shows): Endpoint => ({ name, kind: "data", path: p, shows });
  const next = `cursor=${encodeURIComponent(s.nextCursor)}`;
  return [
    { name: "static file (no database)", kind: "static", path: "/favicon.svg", shows: { file: true } },
    page("landing", "/", { landing: true }),
    page("browse gigs", "/browse-gigs", { gigs: "" }),
    page("browse gigs: search", `/browse-gigs?q=${GIG_SEARCH}`, { gigs: `q=${GIG_SEARCH}` }),
    page("browse gigs: category", `/browse-gigs?category=${s.categoryId}`, { gigs: `category=${s.categoryId}` }),
    page("browse gigs: budget", `/browse-gigs?budget=${BUDGET_BAND}`, { gigs: `budget=${BUDGET_BAND}` }),
    page("browse diggers: rating", "/browse-diggers", { diggers: "" }),
    page("browse diggers: experience", "/browse-diggers?sort=experience", { diggers: "sort=experience" }),
    page("browse diggers: rate", "/browse-diggers?sort=rate", { diggers: "sort=rate" }),
    page("browse diggers: search", `/browse-diggers?q=${DIGGER_SEARCH}`, { diggers: `q=${DIGGER_SEARCH}` }),
    page("gig page", `/gig/${s.gigId}`, { gig: true }),
    page("digger page", `/digger/${s.diggerId}`, { digger: true }),
    // What the browser fetches on client-side navigation (single fetch): a link to another
    // page loads that route's loader only; a filter change on the same page revalidates the
    // root loader too.
    data("landing", "/_.data?_routes=routes%2Fhome", { landing: true }),
    data("browse gigs", "/browse-gigs.data?_routes=routes%2Fbrowse-gigs", { gigs: "" }),
    data("browse gigs: search", `/browse-gigs.data?q=${GIG_SEARCH}`, { gigs: `q=${GIG_SEARCH}` }),
    data("browse gigs: category", `/browse-gigs.data?category=${s.categoryId}`, { gigs: `category=${s.categoryId}` }),
    data("browse gigs: budget", `/browse-gigs.data?budget=${BUDGET_BAND}`, { gigs: `budget=${BUDGET_BAND}` }),
    data("browse gigs: next page", `/browse-gigs.data?${next}`, { gigs: next }),
    data("browse diggers: rating", "/browse-diggers.data?_routes=routes%2Fbrowse-diggers", { diggers: "" }),
    data("browse diggers: experience", "/browse-diggers.data?sort=experience", { diggers: "sort=experience" }),
    data("browse diggers: rate", "/browse-diggers.data?sort=rate", { diggers: "sort=rate" }),
    data("browse diggers: search", `/browse-diggers.data?q=${DIGGER_SEARCH}`, { diggers: `q=${DIGGER_SEARCH}` }),
    data("gig page", `/gig/${s.gigId}.data?_routes=routes%2Fgig`, { gig: true }),
    data("digger page", `/digger/${s.diggerId}.data?_routes=routes%2Fdigger`, { digger: true }),
  ];
}

/**
 * What an endpoint must show, from the app's own queries on the bench database: a list page
 * its full first page (fails here already when the data would give an empty or short list).
 */
const full = (what: string, ids: string[]): Expectation => {
  if (ids.length !== PAGE_SIZE) throw new Error(`bench: ${what} lists ${ids.length} rows in the bench database, not ${PAGE_SIZE}`);
  return { what, texts: ids };
};

/** What Browse Gigs with `query` must show: its 20 gigs and their clients' record lines. */
async function browseExpectation(db: Database, query: string): Promise<Expectation> {
  const page = await listOpenGigs(db, parseBrowseFilters(new URLSearchParams(query)));
  const listed = full(`the ${PAGE_SIZE} gigs of Browse Gigs${query ? ` ?${query}` : ""} and their clients' record lines`, page.items.map((g) => g.id));
  // Each card's line of its client's record (issue 48): the bench must time pages that read them.
  return { ...listed, texts: [...listed.texts, ...new Set(page.items.flatMap((g) => g.clientRecord ?? []))] };
}

async function expectationOf(db: Database, sample: Sample, shows: Shows): Promise<Expectation> {
  if ("gigs" in shows) return browseExpectation(db, shows.gigs);
  if ("diggers" in shows) {
    const params = new URLSearchParams(shows.diggers);
    const page = await browseDiggers(db, browseFilters(params), params.get("cursor"));
    return full(`the ${PAGE_SIZE} diggers of Browse Diggers${shows.diggers ? ` ?${shows.diggers}` : ""}`, page.items.map((d) => d.id));
  }
  if ("landing" in shows) {
    const showcase = await getLandingShowcase(db);
    if (showcase.gigs.length === 0 || showcase.diggers.length === 0) throw new Error("bench: the landing's showcase is empty in the bench database");
    return { what: "the landing's gigs and diggers", texts: [...showcase.gigs.map((g) => g.id), ...showcase.diggers.map((d) => d.id)] };
  }
  if ("gig" in shows) {
    const [gig] = await db.select({ title: gigs.title, clientId: gigs.clientId }).from(gigs).where(eq(gigs.id, sample.gigId));
    const record = (await clientRecordFigures(db, [gig!.clientId])).get(gig!.clientId)!;
    return { what: "the gig's title and its client's record", texts: [gig!.title, ...clientRecordLines(record)] };
  }
  if ("digger" in shows) {
    const [digger] = await db.select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, sample.diggerId));
    return { what: "the digger's handle", texts: [digger!.handle] };
  }
  return { what: "an SVG image", texts: ["<svg"] };
}

const GROWTH_ENDPOINTS = new Set([
  "page:browse gigs",
  "page:browse gigs: search",
  "data:browse gigs",
  "data:browse gigs: search",
  "data:browse gigs: category",
  "data:browse gigs: budget",
  "data:browse diggers: rating",
  "data:browse diggers: search",
]);

async function resolveTarget(gigs: number): Promise<{ target: Target; server: ServerDatabase; label: string }> {
  if (usePglite) {
    const dir = path.join(os.tmpdir(), `dg_bench_pglite_${gigs}`);
    return { target: { kind: "pglite", location: dir }, server: { kind: "pglite", dataDir: dir }, label: `PGlite ${dir}` };
  }
  const url = process.env.DATABASE_URL ?? (await benchDatabaseUrl(pgServer, gigs));
  return { target: { kind: "postgres", location: url }, server: { kind: "postgres", url }, label: `PostgreSQL ${new URL(url).pathname.slice(1)}` };
}

/** The sample rows and every endpoint with what it must show, read from the bench database. */
async function prepare(target: Target): Promise<{ sample: Sample; list: Endpoint[] }> {
  const handle = await openDatabase(target.kind === "postgres" ? { kind: "postgres", url: target.location, poolSize: 1 } : { kind: "pglite", dataDir: target.location });
  try {
    const one = async (query: string) => {
      const result = (await handle.db.execute(query)) as unknown as { rows: Array<{ id: string }> };
      const id = result.rows[0]?.id;
      if (!id) throw new Error(`no row for: ${query}`);
      return id;
    };
    // A gig a few pages down Browse Gigs (listed: an unlisted one's page redirects), a digger
    // with references, and the top-level category with the most gigs in this taxonomy (its
    // sub-categories included).
    const [gig] = await handle.db.select({ id: gigs.id }).from(gigs).where(forSale()).orderBy(desc(gigs.createdAt), desc(gigs.id)).offset(100).limit(1);
    if (!gig) throw new Error("bench: Browse Gigs lists fewer than 101 gigs in the bench database");
    const firstPage = await listOpenGigs(handle.db, parseBrowseFilters(new URLSearchParams()));
    if (!firstPage.nextCursor) throw new Error("bench: Browse Gigs has no second page in the bench database");
    const sample: Sample = {
      gigId: gig.id,
      diggerId: await one(
        "select d.id from digger_profiles d where exists (select 1 from digger_references r where r.digger_id = d.id) order by d.average_rating desc, d.id limit 1",
      ),
      categoryId: await one("select id from categories where slug = 'home-improvement'"),
      nextCursor: firstPage.nextCursor,
    };
    const list = endpoints(sample);
    for (const endpoint of list) endpoint.expect = await expectationOf(handle.db, sample, endpoint.shows);
    return { sample, list };
  } finally {
    await handle.close();
  }
}

/**
 * The browse query exactly as the server sends it, for the raw SQL loop. A search's first
 * query is the window over the newest gigs (server/gigs/browse.ts), which fills the page for
 * the bench's term; the plain query is its fallback.
 */
async function browseSql(url: string, search: string) {
  const handle = await openDatabase({ kind: "postgres", url, poolSize: 1 });
  try {
    const filters = parseBrowseFilters(new URLSearchParams(search ? { q: search } : {}));
    const shape = browseShape(filters);
    const query = statementWithValues((search ? windowSearchQuery(handle.db, shape) : browseGigsQuery(handle.db, shape)).getSQL(), browseValues(filters));
    return { text: query.sql, params: query.params };
  } finally {
    await handle.close();
  }
}

async function measure(
  baseUrl: string,
  list: Endpoint[],
  levels: number[],
  log: (line: string) => void,
  roundCount = rounds,
  out: Record<string, LoadResult[]> = {},
): Promise<Record<string, LoadResult[]>> {
  for (const endpoint of list) {
    // Each answer is checked before any is timed: a redirect or an empty list stops the bench.
    await assertAnswer(baseUrl, endpoint.path, endpoint.expect!);
    await warm(baseUrl, endpoint.path);
  }
  for (const connections of levels) {
    for (let round = 0; round < roundCount; round++) {
      for (const endpoint of list) {
        const result = await load(baseUrl, endpoint.path, connections, duration);
        (out[`${endpoint.kind}:${endpoint.name}@${connections}`] ??= []).push(result);
        log(
          `  ${endpoint.kind.padEnd(6)} ${endpoint.name.padEnd(28)} c=${String(connections).padEnd(3)} ${String(result.rps).padStart(7)} req/s  p50 ${result.p50} p97.5 ${result.p97_5} p99 ${result.p99} ms  errors ${result.errors + result.timeouts + result.non2xx}`,
        );
      }
    }
  }
  return out;
}

function build() {
  if (flag("--no-build") && existsSync(path.join(projectRoot, buildDir, "server/index.js"))) return;
  console.log(`bench: building into ${buildDir}`);
  const result = spawnSync("npx", ["--no-install", "react-router", "build"], {
    cwd: projectRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, BUILD_DIR: buildDir },
  });
  if (result.status !== 0) throw new Error("build failed");
}

async function postgresVersion(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ v: string }>("select version() as v")).rows[0]?.v ?? null;
  } finally {
    await client.end();
  }
}

async function main() {
  const log = (line: string) => console.log(line);
  const startedAt = new Date();
  // Taken now: the one-case sections below write their machine figures at the end.
  const loadAtStart = os.loadavg();
  build();
  if (sections.size === 1 && sections.has("alerts")) {
    // The case makes its own database: the 100k-gig one is not needed.
    log("bench: lead alerts, a gig posted for 10,000 of 200,000 diggers (database dg_bench_alerts, made afresh)");
    const alerts = await alertsCase({ pgServer, buildDir, log });
    writeResults(startedAt, { startedAt: startedAt.toISOString(), machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: os.loadavg(), database: await postgresVersion(pgServer) }, alerts, loadAverageAtEnd: os.loadavg(), finishedAt: new Date().toISOString() }, log);
    return;
  }

  if (sections.size === 1 && sections.has("live")) {
    // The case makes its own database, like the alerts case.
    const sends = Number(option("--live-sends", "1000"));
    const streams = Number(option("--live-streams", "2000"));
    log(`bench: live updates, ${sends} sends to a stream on one server, then ${streams} open streams (database dg_bench_live, made afresh)`);
    const live = await liveCase({ pgServer, buildDir, sends, streams, log });
    writeResults(startedAt, { startedAt: startedAt.toISOString(), machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: loadAtStart, database: await postgresVersion(pgServer) }, live, loadAverageAtEnd: os.loadavg(), finishedAt: new Date().toISOString() }, log);
    return;
  }

  if (sections.size === 1 && sections.has("lists")) {
    const rows = Number(option("--messages", "1000000"));
    const messageGigs = Number(option("--message-gigs", "170000"));
    const calls = Number(option("--calls", "500"));
    log(`bench: lists (quotes, devices), 10,000 and ${rows} rows each, ${calls} calls per list and size`);
    const lists = await listsCase({ pgServer, gigs: messageGigs, large: rows, calls, log });
    writeResults(startedAt, { startedAt: startedAt.toISOString(), machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: loadAtStart, database: await postgresVersion(pgServer) }, lists, loadAverageAtEnd: os.loadavg(), finishedAt: new Date().toISOString() }, log);
    return;
  }

  if (sections.size === 1 && sections.has("messages")) {
    // The case makes its own databases (dg_bench_msg_<messages>), like the alerts case.
    const messages = Number(option("--messages", "1000000"));
    const messageGigs = Number(option("--message-gigs", "170000"));
    const sends = Number(option("--sends", "1000"));
    log(`bench: messages, 10,000 and ${messages} messages in the world of ${messageGigs} gigs, ${sends} sends${pin ? ` (servers on core ${SERVER_CPUS}, load on ${LOAD_CPUS})` : ""}`);
    const browseListed = async (url: string) => {
      const handle = await openDatabase({ kind: "postgres", url, poolSize: 1 });
      try {
        return await browseExpectation(handle.db, "");
      } finally {
        await handle.close();
      }
    };
    const result = await onLoadCores(pin, () => messagesCase({ pgServer, buildDir, gigs: messageGigs, messages, sends, duration, rounds, browseListed, cpus: serverCpus, log }));
    const loadAverageAtEnd = os.loadavg();
    writeResults(startedAt, { startedAt: startedAt.toISOString(), machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: loadAtStart, database: await postgresVersion(pgServer) }, pinned: pin ? { server: SERVER_CPUS, load: LOAD_CPUS } : false, messages: result, loadAverageAtEnd, finishedAt: new Date().toISOString() }, log);
    printMessagesSummary(result, loadAtStart, loadAverageAtEnd);
    return;
  }

  if (sections.size === 1 && sections.has("push")) {
    // The case makes its own database, like the alerts case.
    const pushes = Number(option("--pushes", "10000"));
    log(`bench: ${pushes} pushes through push.send to the local push service (database dg_bench_push, made afresh)`);
    const push = await pushCase({ pgServer, buildDir, pushes, log });
    writeResults(startedAt, { startedAt: startedAt.toISOString(), machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: os.loadavg(), database: await postgresVersion(pgServer) }, push, loadAverageAtEnd: os.loadavg(), finishedAt: new Date().toISOString() }, log);
    return;
  }

  const main = await resolveTarget(gigCount);
  log(`bench: ${main.label}, ${gigCount} gigs`);
  const generated = await generate(main.target, gigCount, log);
  const { sample, list } = await prepare(main.target);

  const results: Record<string, unknown> = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtStart: os.loadavg(),
      database: main.target.kind === "postgres" ? await postgresVersion(main.target.location) : "PGlite",
    },
    options: { gigs: gigCount, duration, rounds, connections: connectionLevels, buildDir, pageCacheSeconds: pageCacheSeconds || "default (10)", pinned: pin ? { server: SERVER_CPUS, load: LOAD_CPUS } : false, search: { gigs: GIG_SEARCH, diggers: DIGGER_SEARCH } },
    data: generated.counts,
    sample,
  };

  let load: Record<string, LoadResult[]> = {};
  let weights: PageWeight[] = [];
  let lighthouse: LighthouseResult[] | { error: string } = [];
  const server = await startServer(main.server, buildDir, serverEnv, serverCpus);
  try {
    if (sections.has("load")) {
      log(`bench: load tests, ${duration} s each, connections ${connectionLevels.join(" and ")}, ${rounds} round(s)`);
      load = await onLoadCores(pin, () => measure(server.url, list, connectionLevels, log));
    }
    if (sections.has("weight")) {
      for (const e of list.filter((x) => x.kind === "page")) weights.push(await pageWeight(server.url, e.path, clientDir));
      weights = weights.filter((w, i) => weights.findIndex((x) => x.path.split("?")[0] === w.path.split("?")[0]) === i);
    }
    if (sections.has("lighthouse")) {
      log("bench: Lighthouse");
      try {
        lighthouse = await runLighthouse(server.url, ["/", "/browse-gigs", `/gig/${sample.gigId}`, `/digger/${sample.diggerId}`], lighthouseRuns);
      } catch (error) {
        lighthouse = { error: String(error) };
        log(`  Lighthouse could not run: ${String(error)}`);
      }
    }
  } finally {
    await server.stop();
  }

  let raw: RawSqlResult[] = [];
  if (sections.has("raw") && main.target.kind === "postgres") {
    log("bench: raw browse SQL in a plain pg loop");
    for (const connections of connectionLevels.slice(0, 1)) {
      for (const search of ["", GIG_SEARCH]) {
        const query = await browseSql(main.target.location, search);
        const result = await rawSqlLoop(main.target.location, query.text, query.params, connections, duration);
        raw.push({ ...result, ...{ search } });
        log(`  browse SQL${search ? ` (search ${search})` : ""} c=${connections}: ${result.qps} queries/s, p50 ${result.p50} p99 ${result.p99} ms`);
      }
    }
  } else if (sections.has("raw")) {
    raw = [];
    log("bench: raw SQL loop skipped (PGlite has one in-process connection; the server holds it)");
  }

  let signedIn: SignedInPage[] | null = null;
  if (sections.has("signed-in") && main.target.kind === "postgres") {
    log(`bench: signed-in pages on 1 server, ${rounds} round(s) of ${duration} s at 10 connections, then half the best rate offered`);
    const browse = list.find((e) => e.kind === "page" && e.name === "browse gigs")!.expect!;
    signedIn = await onLoadCores(pin, () => signedInCase({ databaseUrl: main.target.location, buildDir, duration, rounds, listed: browse, openRates, cpus: serverCpus, log }));
  } else if (sections.has("signed-in")) {
    log("bench: signed-in pages skipped (the case needs PostgreSQL)");
  }

  let cluster: ClusterResult | null = null;
  if (sections.has("cluster") && main.target.kind === "postgres") {
    log(`bench: cluster, signed-in browse gigs on 1 server and on 2, ${rounds} round(s) of ${duration} s`);
    const browse = list.find((e) => e.kind === "page" && e.name === "browse gigs")!.expect!;
    cluster = await clusterCase({ databaseUrl: main.target.location, buildDir, duration, rounds, connections: connectionLevels[0] ?? 10, listed: browse, log });
    log(`  p99 1 server ${cluster.p99.one} ms, 2 servers ${cluster.p99.two} ms (2/1 = ${cluster.p99.ratio}); req/s ${cluster.rps.one} and ${cluster.rps.two} (2/1 = ${cluster.rps.ratio})`);
  } else if (sections.has("cluster")) {
    log("bench: cluster skipped (several servers need PostgreSQL)");
  }

  let alerts: AlertsResult | null = null;
  if (sections.has("alerts") && main.target.kind === "postgres") {
    log(`bench: lead alerts, a gig posted for 10,000 of 200,000 diggers (database ${"dg_bench_alerts"}, made afresh)`);
    alerts = await alertsCase({ pgServer, buildDir, log });
  } else if (sections.has("alerts")) {
    log("bench: lead alerts skipped (the case needs PostgreSQL)");
  }

  const growth: Record<string, Record<string, LoadResult[]>> = {};
  if (sections.has("growth")) {
    // Every size's server runs from the start, and the rounds take the sizes in turn (10k, 100k,
    // 1M, 10k, ...): the machine's load drifts over minutes, and measuring one size after the
    // other put that drift into the ratios.
    const servers: Array<{ size: number; url: string; list: Endpoint[]; stop: () => Promise<void> }> = [];
    try {
      for (const size of growthSizes) {
        const target = await resolveTarget(size);
        log(`bench: growth, ${size} gigs (${target.label})`);
        await generate(target.target, size, log);
        const prepared = await prepare(target.target);
        const srv = await startServer(target.server, buildDir, serverEnv, serverCpus);
        servers.push({ size, url: srv.url, stop: srv.stop, list: prepared.list.filter((e) => GROWTH_ENDPOINTS.has(`${e.kind}:${e.name}`)) });
      }
      for (let round = 0; round < rounds; round++) {
        for (const { size, url, list: growthList } of servers) {
          log(`bench: growth round ${round + 1} of ${rounds}, ${size} gigs`);
          growth[String(size)] = await onLoadCores(pin, () => measure(url, growthList, connectionLevels.slice(0, 1), log, 1, growth[String(size)]));
        }
      }
    } finally {
      for (const srv of servers) await srv.stop();
    }
  }

  Object.assign(results, { load, raw, weights, lighthouse, signedIn, cluster, alerts, growth, loadAverageAtEnd: os.loadavg(), finishedAt: new Date().toISOString() });
  results.budget = evaluateBudget(results as never);
  printSummary(results as never);
  writeResults(startedAt, results, log);
}

/** Writes bench/results/<date>[-n].json. */
function writeResults(startedAt: Date, results: Record<string, unknown>, log: (line: string) => void) {
  const dir = path.join(projectRoot, "bench/results");
  mkdirSync(dir, { recursive: true });
  const day = startedAt.toISOString().slice(0, 10);
  let file = path.join(dir, `${day}.json`);
  for (let i = 2; existsSync(file); i++) file = path.join(dir, `${day}-${i}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nbench: results in ${path.relative(projectRoot, file)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
