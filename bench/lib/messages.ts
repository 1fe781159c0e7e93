/**
 * The messages case (issue 35, only when asked: `--only messages`): the bench world of
 * `gigs` gigs (generate.ts: a thread per completed purchase; 170,000 gigs give about 105,000
 * threads) in two databases, one with 10,000 messages and one with `messages` (by default
 * 1,000,000), spread over the world's first 100,000 threads (fillMessages). In both the heavy
 * digger (generate.ts) has 50 threads, one of them 500 messages long, and 200 diggers with a
 * thread can sign in. The plans of the inbox's and the long thread's queries are taken at each
 * size (message-plans.ts). One server per database, both
 * running for the whole case; rounds take the sizes in turn. Figures:
 *  - inbox (/messages) and the 500-message thread (/messages/<id>) of the heavy digger at 10
 *    connections, per size (each checked first: the person's name, the thread's newest message),
 *    with the server's figures (signed-in.ts's `measured`); at the largest size, in turns with
 *    them on the same server, signed-in /browse-gigs (the heavy digger) and /my-gigs (the heavy
 *    client), as signed-in.ts checks them, and then the thread's open loop at half its best
 *    (issue 52: the thread at Browse Gigs' rate, the inbox at My Gigs'; summary.ts's ratios);
 *  - sending (POST /messages/<id>.data, what the page's script posts): `sends` messages by 10
 *    senders at once, over the 200 diggers (the limit is 30 a minute each), p50/p99 per size,
 *    after 200 untimed sends that warm the server's send path;
 *  - live: a second server on the larger database (B) holds a stream for each sender; each of
 *    `sends` sends, one after another on server A, is timed from the POST to the event on B.
 * The memory of 2,000 open streams is the live case's (`--only live`).
 *
 * With `cpus` (run.ts, unless `--no-pin`), every server of the case runs on the server's core
 * and run.ts keeps this process, the load generator, on the other (lib/cpu.ts), as in the
 * signed-in case: unpinned, the scheduler put the load generator on the server's core now and
 * then, and the open loop's p99 was those moments (bench/README, "Issue 52, sixth session").
 */
import type { IncomingMessage } from "node:http";
import pg from "pg";
import { BENCH_DB_PREFIX, BENCH_PASSWORD, generate, HEAVY_DIGGER } from "../generate.ts";
import type { Expectation } from "./expect.ts";
import { withoutSecondaryIndexes } from "./bulk.ts";
import { openStream } from "./live.ts";
import { messagePlans, type StatementPlan } from "./message-plans.ts";
import { load, warm } from "./load.ts";
import { METRICS_TOKEN } from "./metrics.ts";
import { openLoad } from "./open-loop.ts";
import { startServer, type BenchServer } from "./server.ts";
import { check, describeRun, measured, refreshCookies, signedInPages, warmUp, withSetCookies, type Person, type SignedInRun, type SignedInTarget } from "./signed-in.ts";

const SENDERS = 200;
const CONCURRENT_SENDERS = 10;
/** Sends made before the timed ones, untimed (the cold server's first sends are not what a send costs). */
const WARM_SENDS = 200;
const LONG_THREAD = 500;
const SMALL = 10_000;

interface MessagesSize {
  messages: number;
  threads: number;
  /** Threads that hold at least one message. */
  threadsWithMessages: number;
  loadSeconds: number;
  /** EXPLAIN (ANALYZE, BUFFERS) of every SELECT the inbox and the long thread's page send. */
  plans: StatementPlan[];
  inbox: SignedInRun[];
  thread: SignedInRun[];
  /**
   * The largest size only: signed-in /browse-gigs (the heavy digger) and /my-gigs (the heavy
   * client) on the same server and database, in turns with the thread and the inbox (issue 52:
   * the thread at least at Browse Gigs' rate, the inbox at My Gigs'); the thread's open loop at
   * half its best closed-loop rate.
   */
  browseGigs?: SignedInRun[];
  myGigs?: SignedInRun[];
  threadOpen?: SignedInRun;
  sendMs: { p50: number; p99: number; max: number };
}

export interface MessagesResult {
  sizes: MessagesSize[];
  /** From the POST on server A to the event on server B's stream, over `sends` sends. */
  liveMs: { sends: number; p50: number; p99: number; max: number };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 100) / 100;
  return { p50: r(quantile(sorted, 0.5)), p99: r(quantile(sorted, 0.99)), max: r(sorted.at(-1)!) };
};

/** Threads that hold the messages: the first THREADS of the world (by id), the long thread apart. */
const THREADS = 100_000;
/** Raise it when the filled messages change: a database filled by another version is filled again. */
const FILL_VERSION = 2;
const fillMarker = (messages: number) => `bench messages v${FILL_VERSION}: ${messages} messages`;

/**
 * A database named for its size. A size after the first is copied from the first one's database
 * (CREATE DATABASE ... TEMPLATE: a file copy, instead of generating the same world again), then
 * gets its own messages; `generate` then only verifies it.
 */
async function sizeDatabase(pgServer: string, messages: number, copyOf: string | null, log: (line: string) => void): Promise<string> {
  const name = `${BENCH_DB_PREFIX}_msg_${messages}`;
  const admin = new pg.Client({ connectionString: pgServer });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount && copyOf) {
      const { rows } = await admin.query<{ comment: string | null }>(
        "select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1",
        [copyOf],
      );
      try {
        await admin.query(`create database "${name}" template "${copyOf}"`);
        if (rows[0]?.comment) await admin.query(`comment on database "${name}" is '${rows[0].comment.replaceAll("'", "''")}'`);
        log(`  ${name}: copied from ${copyOf}`);
        return name;
      } catch (error) {
        // Another session on the template (autovacuum): generate this one instead.
        log(`  ${name}: could not copy ${copyOf} (${(error as Error).message}), generating it`);
      }
    }
    if (!(await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount) await admin.query(`create database "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * Fills `messages` messages in one transaction: the heavy digger's first thread gets the
 * LONG_THREAD newest (its parties taking turns), the rest are spread by a hash of the row over
 * the world's first THREADS threads. With the triggers off and the secondary indexes of
 * `messages` dropped for the load and rebuilt from their own definitions (as generate.ts does);
 * nothing on `messages` derives anything by trigger, and what the app keeps on `threads` is
 * written from the messages: `last_message_seq`, `last_activity_at`, both read marks (every
 * message read, so no notice is owed) and their times. A message's time lies between its
 * thread's creation and an hour ago, rising with its seq within the thread.
 */
async function fillMessages(client: pg.Client, messages: number) {
  await client.query("begin");
  await client.query("set local session_replication_role = replica");
  await client.query("set local maintenance_work_mem = '512MB'");
  await client.query("truncate messages cascade");
  await withoutSecondaryIndexes(client, "messages", async () => {
    await client.query(
      `create temp table bench_long on commit drop as select * from threads where digger_user_id = $1 order by id limit 1`,
      [HEAVY_DIGGER],
    );
    await client.query(`create temp table bench_threads on commit drop as
      select id, digger_user_id, client_id, created_at, row_number() over (order by id)::int as n
      from threads where id <> (select id from bench_long) order by id limit ${THREADS}`);
    await client.query("create unique index on bench_threads (n)");
    await client.query("analyze bench_threads");
    const spread = messages - LONG_THREAD;
    await client.query(
      `insert into messages (thread_id, sender_id, body, created_at, told_at)
       select t.id, case when j % 3 = 0 then t.client_id else t.digger_user_id end,
              'Hello, about the job: message ' || j || '. When could you start, and what would it cost?',
              t.created_at + greatest(interval '0', now() - interval '1 hour' - t.created_at) * (j::float8 / ${spread + 1}), now()
       from generate_series(1, ${spread}) j
       join bench_threads t on t.n = 1 + (hashint8(j) & 2147483647) % (select count(*) from bench_threads)
       order by j`,
    );
    // Last, so that its messages have the highest seqs and the newest times of the world.
    await client.query(
      `insert into messages (thread_id, sender_id, body, created_at, told_at)
       select t.id, case when j % 2 = 0 then t.digger_user_id else t.client_id end,
              'Bench message ' || j || ' of the long thread.', now() - make_interval(secs => ${LONG_THREAD} - j), now()
       from bench_long t cross join generate_series(1, ${LONG_THREAD}) j order by j`,
    );
  });
  await client.query(`update threads set last_message_seq = m.last, digger_read_seq = m.last, client_read_seq = m.last,
      digger_read_at = m.at, client_read_at = m.at, last_activity_at = m.at
    from (select thread_id, max(seq) as last, max(created_at) as at from messages group by thread_id) m where m.thread_id = threads.id`);
  await client.query(`comment on table messages is '${fillMarker(messages)}'`);
  await client.query("commit");
  await client.query("vacuum analyze messages");
  await client.query("vacuum analyze threads");
}

/** The bench world with `messages` messages, made once per size (the fill's marker names the count). */
export async function messagesDatabase(pgServer: string, gigs: number, messages: number, copyOf: string | null, log: (line: string) => void) {
  const name = await sizeDatabase(pgServer, messages, copyOf, log);
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  await generate({ kind: "postgres", location: url.toString() }, gigs, () => {});
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const started = performance.now();
  try {
    const { rows } = await client.query<{ marker: string | null }>("select obj_description('messages'::regclass, 'pg_class') as marker");
    if (rows[0]!.marker !== fillMarker(messages)) {
      log(`  filling ${messages} messages into ${name}`);
      await fillMessages(client, messages);
    }
    const loadSeconds = (performance.now() - started) / 1000;
    // The senders can sign in (one stored hash for all: only the bench knows the password).
    const { hashPassword } = await import("better-auth/crypto");
    await client.query(
      `insert into accounts (id, account_id, provider_id, user_id, password)
       select 'bench-account-' || u, u, 'credential', u, $2
       from (select distinct digger_user_id as u from threads where digger_user_id <> $1 order by 1 limit ${SENDERS}) s
       on conflict (id) do nothing`,
      [HEAVY_DIGGER, await hashPassword(BENCH_PASSWORD)],
    );
    const { rows: info } = await client.query<{ threads: number; with_messages: number; long: string; long_count: number; last: string }>(
      `select (select count(*)::int from threads) as threads,
              (select count(*)::int from threads where last_message_seq > 0) as with_messages,
              (select id from threads where digger_user_id = $1 order by id limit 1) as long,
              (select count(*)::int from messages where thread_id = (select id from threads where digger_user_id = $1 order by id limit 1)) as long_count,
              'Bench message ${LONG_THREAD} of the long thread.' as last`,
      [HEAVY_DIGGER],
    );
    if (info[0]!.long_count !== LONG_THREAD) throw new Error(`bench: the long thread holds ${info[0]!.long_count} messages, not ${LONG_THREAD}`);
    const { rows: senders } = await client.query<{ user_id: string; email: string; thread: string }>(
      `select a.user_id, u.email, (select id from threads t where t.digger_user_id = a.user_id order by id limit 1) as thread
       from accounts a join users u on u.id = a.user_id where a.id like 'bench-account-%' and a.user_id <> $1 and a.user_id like 'bench-d-%'
         and a.user_id <> 'bench-d-1' order by a.user_id limit ${SENDERS}`,
      [HEAVY_DIGGER],
    );
    const { rows: heavy } = await client.query<{ email: string; full_name: string }>("select email, full_name from users where id = $1", [HEAVY_DIGGER]);
    return {
      name,
      url: url.toString(),
      threads: info[0]!.threads,
      threadsWithMessages: info[0]!.with_messages,
      longThread: info[0]!.long,
      lastText: info[0]!.last,
      senders,
      heavy: heavy[0]!,
      loadSeconds,
    };
  } finally {
    await client.end();
  }
}

let forwarded = 0;
/** Signs in with the bench password; each from its own client address (TRUST_PROXY), past the per-address limit. */
async function signIn(server: BenchServer, email: string): Promise<string> {
  forwarded += 1;
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": `10.9.${(forwarded >> 8) & 255}.${forwarded & 255}` },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`bench: sign-in of ${email} answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

/**
 * One message, as the thread page's script posts it; throws unless the server took it. Answers
 * the sender's cookies as a browser keeps them after the answer (the session's cached copy is
 * renewed once a minute: without it every later send would read the session from the database).
 */
async function send(server: BenchServer, cookie: string, threadId: string, body: string): Promise<string> {
  const response = await fetch(`${server.url}/messages/${threadId}.data`, {
    method: "POST",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ body, js: "1" }),
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes("too_many_requests") || !text.includes("sent")) throw new Error(`bench: a send answered ${response.status}: ${text.slice(0, 200)}`);
  return withSetCookies(cookie, response.headers.getSetCookie());
}

export async function messagesCase(options: {
  pgServer: string;
  buildDir: string;
  gigs: number;
  messages: number;
  sends: number;
  duration: number;
  rounds: number;
  /** Browse Gigs' 20 gigs signed out in the database at this URL (run.ts's expectation): the digger's page lists them too. */
  browseListed: (databaseUrl: string) => Promise<Expectation>;
  /** The cores the servers run on (taskset's list), or any. */
  cpus?: string;
  log: (line: string) => void;
}): Promise<MessagesResult> {
  const { pgServer, buildDir, gigs, messages, sends, duration, rounds, browseListed, cpus, log } = options;
  const sizes = [...new Set([SMALL, messages])];
  const worlds = [];
  for (const size of sizes) {
    const world = await messagesDatabase(pgServer, gigs, size, worlds[0]?.name ?? null, log);
    log(`  ${world.name}: ${size} messages in ${world.threadsWithMessages} of ${world.threads} threads (${world.loadSeconds.toFixed(1)} s to fill or check)`);
    const plans = await messagePlans(world.url, HEAVY_DIGGER, world.longThread);
    for (const plan of plans) log(`    ${plan.page}: ${plan.executionMs} ms; ${plan.scans.join(" | ")}`);
    worlds.push({ size, plans, ...world });
  }
  const servers: BenchServer[] = [];
  const held: IncomingMessage[] = [];
  try {
    for (const world of worlds) servers.push(await startServer({ kind: "postgres", url: world.url }, buildDir, { TRUST_PROXY: "1", METRICS_TOKEN }, cpus));
    const results: MessagesSize[] = worlds.map((w) => ({ messages: w.size, threads: w.threads, threadsWithMessages: w.threadsWithMessages, plans: w.plans, loadSeconds: Math.round(w.loadSeconds * 10) / 10, inbox: [], thread: [], sendMs: { p50: 0, p99: 0, max: 0 } }));
    // Per size, the pages timed in turns: the thread and the inbox, and at the largest size
    // Browse Gigs and My Gigs between them (signed-in.ts's pages and checks).
    const timed: Array<Array<SignedInTarget & { runs: SignedInRun[] }>> = [];
    const last = worlds.length - 1;
    for (const [i, world] of worlds.entries()) {
      const server = servers[i]!;
      const heavy: Person = { id: HEAVY_DIGGER, name: world.heavy.full_name, cookie: await signIn(server, world.heavy.email) };
      const who = `, signed in as ${world.heavy.full_name}`;
      const thread = { name: "thread of 500", path: `/messages/${world.longThread}`, person: heavy, check: { expectation: { what: `the long thread's newest message${who}`, texts: [world.heavy.full_name, world.lastText] } } };
      const inbox = { name: "inbox", path: "/messages", person: heavy, check: { expectation: { what: `the inbox with the long thread${who}`, texts: [world.heavy.full_name, world.longThread] } } };
      let pages: SignedInTarget[] = [thread, inbox];
      if (i === last) {
        const client = new pg.Client({ connectionString: world.url });
        await client.connect();
        try {
          const others = await signedInPages(server, client, await browseListed(world.url));
          const page = (path: string) => others.find((p) => p.path === path)!;
          pages = [thread, page("/browse-gigs"), inbox, page("/my-gigs")];
        } finally {
          await client.end();
        }
      }
      for (const page of pages) {
        await check(server, page.path, page.person.cookie, page.check);
        if (i === last) await warmUp(server, page);
        else await warm(server.url, page.path, 5, { cookie: page.person.cookie });
      }
      timed.push(pages.map((page) => ({ ...page, runs: [] })));
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, world] of worlds.entries()) {
        const server = servers[i]!;
        for (const page of timed[i]!) {
          await refreshCookies(server, page.person);
          const run = await measured(server, () => load(server.url, page.path, 10, duration, { cookie: page.person.cookie }));
          page.runs.push(run);
          log(`  ${String(world.size).padStart(8)} messages, ${page.name.padEnd(26)} c=10 round ${round + 1}: ${describeRun(run)}`);
        }
      }
    }
    for (const [i, pages] of timed.entries()) {
      const runs = (path: string) => pages.find((p) => p.path === path)?.runs;
      results[i]!.thread = runs(`/messages/${worlds[i]!.longThread}`)!;
      results[i]!.inbox = runs("/messages")!;
      results[i]!.browseGigs = runs("/browse-gigs");
      results[i]!.myGigs = runs("/my-gigs");
    }
    {
      // The thread's open loop at the largest size, at half its best closed-loop rate.
      const server = servers[last]!;
      const thread = timed[last]![0]!;
      const rate = Math.max(1, Math.floor(Math.max(...thread.runs.map((r) => r.rps)) / 2));
      await refreshCookies(server, thread.person);
      const run = await measured(server, () => openLoad(server.url, thread.path, rate, duration, { cookie: thread.person.cookie }));
      results[last]!.threadOpen = { ...run, offeredRate: rate };
      log(`  ${String(worlds[last]!.size).padStart(8)} messages, ${thread.name.padEnd(26)} offered ${rate}/s: ${describeRun(run)}`);
      // Still the same pages after the load (no expired session timed).
      for (const page of timed[last]!) await check(server, page.path, page.person.cookie, page.check);
    }

    // Sending: 10 senders at once, each taking the next of the 200 diggers in turn.
    const senderCookies: string[][] = [];
    for (const [i, world] of worlds.entries()) {
      const cookies: string[] = [];
      for (const s of world.senders) cookies.push(await signIn(servers[i]!, s.email));
      senderCookies.push(cookies);
      let next = 0;
      const sendMany = async (count: number) => {
        const times: number[] = [];
        const end = next + count;
        await Promise.all(
          Array.from({ length: CONCURRENT_SENDERS }, async () => {
            while (next < end) {
              const n = next++;
              const k = n % world.senders.length;
              const t = performance.now();
              cookies[k] = await send(servers[i]!, cookies[k]!, world.senders[k]!.thread, `Bench send ${n}: could you come on Tuesday?`);
              times.push(performance.now() - t);
            }
          }),
        );
        return times;
      };
      // Untimed first: the send's code compiled and its statements prepared on every pool
      // connection, as on a server that has been up a while (each sender stays far under its 30 a
      // minute: 6 sends each with the 1,000 timed).
      await sendMany(WARM_SENDS);
      results[i]!.sendMs = summary(await sendMany(sends));
      log(`  ${String(world.size).padStart(8)} messages, ${sends} sends by ${CONCURRENT_SENDERS} senders: p50 ${results[i]!.sendMs.p50} p99 ${results[i]!.sendMs.p99} max ${results[i]!.sendMs.max} ms`);
    }

    // Live: a send on A (the larger database's server), the event on B's stream for the sender.
    const world = worlds[last]!;
    const a = servers[last]!;
    const b = await startServer({ kind: "postgres", url: world.url }, buildDir, { TRUST_PROXY: "1" }, cpus);
    servers.push(b);
    const waiting = new Map<string, (at: number) => void>();
    for (const s of world.senders) {
      const cookie = await signIn(b, s.email);
      held.push(
        await openStream(b, cookie, (event) => {
          if (event.event !== "thread") return;
          const threadId = (JSON.parse(event.data) as { threadId: string }).threadId;
          waiting.get(threadId)?.(performance.now());
        }),
      );
    }
    const latencies: number[] = [];
    for (let n = 0; n < sends; n += 1) {
      const k = n % world.senders.length;
      const thread = world.senders[k]!.thread;
      const heard = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`bench: send ${n} on server A never reached server B's stream`)), 10_000);
        waiting.set(thread, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
      const t = performance.now();
      senderCookies[last]![k] = await send(a, senderCookies[last]![k]!, thread, `Bench live ${n}: still on for Tuesday?`);
      latencies.push((await heard) - t);
      waiting.delete(thread);
    }
    const liveMs = { sends, ...summary(latencies) };
    log(`  ${sends} sends on server A, the event on server B's stream: p50 ${liveMs.p50} p99 ${liveMs.p99} max ${liveMs.max} ms`);
    return { sizes: results, liveMs };
  } finally {
    for (const res of held) res.destroy();
    for (const server of servers) await server.stop();
  }
}
