/**
 * The live case (issue 32, "Live"; only when asked: `--only live`): on a fresh PostgreSQL
 * database, the built server B in production mode, and
 *  - latency: the time from a publish committed by another process on the same database
 *    (`publishLive` in a transaction, as `emit` sends an event's live updates on server A: the
 *    bench process stands in for A) to the event read on a stream held open on B, over
 *    `sends` sends one after another: p50, p99, max;
 *  - memory: B's resident set before and after opening `streams` streams (6 per account, the
 *    per-account cap), and the growth per stream.
 * Its accounts have their e-mail confirmed and a thread each (only such accounts hold streams,
 * issue 45), and its streams all come from loopback, one network: both caps are raised past them.
 * Take its figures on a quiet machine: on a busy one they measure the machine.
 */
import { request, type IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { inArray } from "drizzle-orm";
import { LIVE_PATH } from "../../core/live-events.ts";
import { openDatabase } from "../../server/db/client.ts";
import { users } from "../../server/db/schema.ts";
import { STREAMS_PER_USER } from "../../server/live/hub.ts";
import { publishLive } from "../../server/live/publish.ts";
import { addDiggerProfile, type WithDatabase } from "../../tests/support/accounts.ts";
import { insertGig, insertPurchase } from "../../tests/support/leads.ts";
import { SseParser, type SseEvent } from "../../tests/support/sse.ts";
import { freshDatabase } from "./fresh-database.ts";
import { startServer, type BenchServer } from "./server.ts";

const DATABASE = "dg_bench_live";

export interface LiveResult {
  sends: number;
  /** Milliseconds from the publish's commit call to the event on B's stream. */
  latencyMs: { p50: number; p99: number; max: number };
  streams: number;
  rssMb: { before: number; after: number };
  /** B's resident set growth per open stream. */
  rssPerStreamKb: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A signed-in account on the server (a distinct client address each, past the sign-up limits). */
async function account(server: BenchServer, n: number): Promise<{ id: string; cookie: string }> {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
    body: JSON.stringify({ name: `Live Bench ${n}`, email: `live-bench-${n}-${randomUUID()}@example.com`, password: "bench-password-123", userType: "consumer", ageConfirmed: true }),
  });
  if (!response.ok) throw new Error(`sign-up for the live case answered ${response.status}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { id: user.id, cookie };
}

/** Confirms these accounts' e-mail and gives each a thread, as the client of a gig that one bench digger bought. */
async function withThreads(database: WithDatabase, ids: string[]): Promise<void> {
  const db = database.database.db;
  const diggerUserId = randomUUID();
  await db.insert(users).values({ id: diggerUserId, name: "Live Bench Digger", email: `live-bench-digger-${diggerUserId}@example.com`, emailVerified: true, userType: "digger" });
  const diggerId = await addDiggerProfile(database, { id: diggerUserId });
  await db.update(users).set({ emailVerified: true }).where(inArray(users.id, ids));
  for (const id of ids) await insertPurchase(database, await insertGig(database, id), diggerId);
}

/** Opens a stream (its own connection) and resolves once its `ready` is read. */
export function openStream(server: BenchServer, cookie: string, onEvent?: (event: SseEvent) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let ready = false;
    const parser = new SseParser((event) => {
      if (event.event === "ready" && !ready) {
        ready = true;
        resolve(response!);
      }
      onEvent?.(event);
    });
    let response: IncomingMessage | undefined;
    const req = request(`${server.url}${LIVE_PATH}`, { headers: { cookie }, agent: false }, (res) => {
      response = res;
      if (res.statusCode !== 200) reject(new Error(`the stream answered ${res.statusCode}`));
      res.on("data", (chunk: Buffer) => parser.feed(chunk));
    });
    req.on("error", reject);
    req.end();
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

export async function liveCase({ pgServer, buildDir, sends, streams, log }: { pgServer: string; buildDir: string; sends: number; streams: number; log: (line: string) => void }): Promise<LiveResult> {
  const url = await freshDatabase(pgServer, DATABASE);
  // The watcher's stream and `streams` more: past LIVE_MAX_STREAMS' default when asked for more than 1,999.
  const server = await startServer({ kind: "postgres", url }, buildDir, {
    TRUST_PROXY: "1",
    LIVE_MAX_STREAMS: String(streams + 1),
    LIVE_MAX_STREAMS_PER_NETWORK: String(streams + 1),
  });
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  const withDatabase = { database: { db: database.db } };
  const held: IncomingMessage[] = [];
  try {
    const pid = server.child.pid!;
    // Latency: one stream, one send at a time.
    const watcher = await account(server, 0);
    await withThreads(withDatabase, [watcher.id]);
    let arrived: ((at: number) => void) | undefined;
    held.push(await openStream(server, watcher.cookie, (event) => event.event === "thread" && arrived?.(performance.now())));
    const latencies: number[] = [];
    for (let i = 0; i < sends; i += 1) {
      const heard = new Promise<number>((resolve) => (arrived = resolve));
      const sent = performance.now();
      await database.db.transaction((tx) => publishLive(tx, [watcher.id], { kind: "thread", threadId: randomUUID() }));
      latencies.push((await heard) - sent);
    }
    latencies.sort((a, b) => a - b);
    const latencyMs = { p50: round(quantile(latencies, 0.5)), p99: round(quantile(latencies, 0.99)), max: round(latencies.at(-1)!) };
    log(`  ${sends} sends, publish to event on server B: p50 ${latencyMs.p50} ms, p99 ${latencyMs.p99} ms, max ${latencyMs.max} ms`);

    // Memory: `streams` more streams, STREAMS_PER_USER per account.
    const accounts: Array<{ id: string; cookie: string }> = [];
    for (let i = 1; i <= Math.ceil(streams / STREAMS_PER_USER); i += 1) accounts.push(await account(server, i));
    await withThreads(withDatabase, accounts.map((a) => a.id));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = rssMb(pid);
    for (let i = 0; i < streams; i += 50) {
      const batch = Array.from({ length: Math.min(50, streams - i) }, (_, j) => accounts[Math.floor((i + j) / STREAMS_PER_USER)]!);
      held.push(...(await Promise.all(batch.map((a) => openStream(server, a.cookie)))));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = rssMb(pid);
    const rssPerStreamKb = round(((after - before) * 1024) / streams, 1);
    log(`  ${streams} open streams on one server: RSS ${round(before, 1)} MB -> ${round(after, 1)} MB, ${rssPerStreamKb} KB per stream`);
    return { sends, latencyMs, streams, rssMb: { before: round(before, 1), after: round(after, 1) }, rssPerStreamKb };
  } finally {
    for (const res of held) res.destroy();
    await database.close();
    await server.stop();
  }
}
