/**
 * The cluster case (issue 18): signed-in Browse Gigs (never from the page cache) on one server
 * and on two behind one port (`server/cluster.ts`), both running for the whole case and
 * measured in turns (1, 2, 1, 2, ...) so that the machine's drifting load falls on both; and
 * what the shared pieces cost each request: one rate-limit count in PostgreSQL, one job
 * enqueued. Nothing is pinned: two servers need both cores.
 */
import { pino } from "pino";
import { openDatabase } from "../../server/db/client.ts";
import { createJobQueue } from "../../server/jobs/queue.ts";
import { RateLimiter } from "../../server/security/rate-limiter.ts";
import { assertAnswer, type Expectation } from "./expect.ts";
import { load, warm, type LoadResult } from "./load.ts";
import { startServer, type BenchServer } from "./server.ts";

export interface ClusterResult {
  path: string;
  connections: number;
  /** Each round's run, by number of servers. */
  one: LoadResult[];
  two: LoadResult[];
  /** Best of the rounds (the least disturbed), and two servers' over one server's. */
  p99: { one: number; two: number; ratio: number };
  rps: { one: number; two: number; ratio: number };
  /** Milliseconds per operation, sequential and at `connections` at once. */
  rateLimitMs: { sequential: number; concurrent: number };
  enqueueMs: { sequential: number; concurrent: number };
}

const PATH = "/browse-gigs";

/** Signs a person up through Better Auth's JSON API and returns their cookie header and e-mail. */
async function signedIn(server: BenchServer): Promise<{ cookie: string; email: string }> {
  const email = `bench-${Date.now()}@example.com`;
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ name: "Bench Person", email, password: "bench-password-123", ageConfirmed: true }),
  });
  if (!response.ok) throw new Error(`sign-up for the cluster case answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { cookie, email };
}

/** Milliseconds per call of `op`, `count` times one after another and `count` times `width` at once. */
async function perCall(op: (i: number) => Promise<unknown>, count: number, width: number) {
  let started = performance.now();
  for (let i = 0; i < count; i += 1) await op(i);
  const sequential = (performance.now() - started) / count;
  started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await op(count + next++);
    }),
  );
  const concurrent = (performance.now() - started) / count;
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return { sequential: round(sequential), concurrent: round(concurrent) };
}

export async function clusterCase(options: {
  databaseUrl: string;
  buildDir: string;
  duration: number;
  rounds: number;
  connections: number;
  /** What signed-out Browse Gigs shows (its 20 gigs): the signed-in page must show it too. */
  listed: Expectation;
  log: (line: string) => void;
}): Promise<ClusterResult> {
  const { databaseUrl, buildDir, duration, rounds, connections, listed, log } = options;
  const database = { kind: "postgres" as const, url: databaseUrl };
  const one = await startServer(database, buildDir, {});
  const two = await startServer(database, buildDir, { CLUSTER_SIZE: "2" }, undefined, "server/cluster.ts");
  const runs: { one: LoadResult[]; two: LoadResult[] } = { one: [], two: [] };
  try {
    const { cookie, email } = await signedIn(one);
    // The page the load test times: the listed gigs, and the person signed in (their e-mail
    // in the page's data, the Sign Out button), never a cached signed-out copy.
    const expected = { what: `${listed.what}, signed in as ${email}`, texts: [...listed.texts, email, "Sign Out"] };
    for (const server of [one, two]) {
      const page = await fetch(`${server.url}${PATH}`, { headers: { cookie } });
      if (page.headers.get("x-page-cache")) throw new Error(`${PATH} signed in came from the page cache (${page.headers.get("x-page-cache")})`);
      await assertAnswer(server.url, PATH, expected, { cookie });
      await warm(server.url, PATH, 5, { cookie });
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, server] of [["one", one], ["two", two]] as const) {
        const result = await load(server.url, PATH, connections, duration, { cookie });
        runs[name].push(result);
        log(`  cluster round ${round + 1}: ${name === "one" ? "1 server " : "2 servers"} signed-in ${PATH} c=${connections} ${result.rps} req/s  p50 ${result.p50} p99 ${result.p99} ms  errors ${result.errors + result.timeouts + result.non2xx}`);
      }
    }
  } finally {
    await one.stop();
    await two.stop();
  }

  // The shared pieces, from this process on the same database.
  const handle = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: connections });
  const jobs = createJobQueue(handle, pino({ level: "silent" }));
  let rateLimitMs, enqueueMs;
  try {
    const limiter = new RateLimiter("bench", 1_000_000, 60_000, handle.driver.kind === "postgres" ? handle.driver.pool : undefined);
    rateLimitMs = await perCall((i) => limiter.take(`bench-${i % 50}`), 1000, connections);
    await jobs.start();
    // A day ahead, so no worker would take them; removed below.
    enqueueMs = await perCall((i) => jobs.send("refund.send", { refundId: `bench-${i}` }, { startAfterSeconds: 86_400 }), 500, connections);
    await handle.db.execute(`delete from pgboss.job where name = 'refund.send' and data->>'refundId' like 'bench-%'`);
    await handle.db.execute(`delete from rate_limits where key like 'bench:%'`);
  } finally {
    await jobs.stop();
    await handle.close();
  }
  log(`  rate limit count: ${rateLimitMs.sequential} ms each (${rateLimitMs.concurrent} ms at ${connections} at once); enqueue a job: ${enqueueMs.sequential} ms (${enqueueMs.concurrent} ms)`);

  const best = (list: LoadResult[], key: "p99" | "rps") => (key === "p99" ? Math.min(...list.map((r) => r.p99)) : Math.max(...list.map((r) => r.rps)));
  const ratio = (a: number, b: number) => Math.round((b / a) * 100) / 100;
  const p99 = { one: best(runs.one, "p99"), two: best(runs.two, "p99") };
  const rps = { one: best(runs.one, "rps"), two: best(runs.two, "rps") };
  return {
    path: PATH,
    connections,
    ...runs,
    p99: { ...p99, ratio: ratio(p99.one, p99.two) },
    rps: { ...rps, ratio: ratio(rps.one, rps.two) },
    rateLimitMs,
    enqueueMs,
  };
}
