/**
 * The signed-in pages (issue 35): Browse Gigs for a digger, My Gigs for a client with 50 gigs,
 * My Leads for a digger with 50 leads, and Notifications, on one server in production mode
 * (never from the page cache: a signed-in page is rendered each time). Each page is checked
 * before it is timed: status 200, the signed-in person's name, and what the page lists (Browse
 * Gigs its 20 gigs, My Gigs and My Leads 20 or more of the person's 50 gigs). Then, per page:
 *  - closed loop: `rounds` runs at 10 connections, each asking again as soon as answered;
 *  - open loop: one run at a fixed offered rate (`openRates`, else half the best closed-loop
 *    rate), requests sent at evenly spaced times and each timed from when it was due
 *    (lib/open-loop.ts), so that a stall makes requests wait instead of slowing the offer;
 * and for every run the server's CPU time per request, its event-loop delay (prom-client's
 * percentiles in /metrics, reset by each scrape, so a scrape before and after a run covers that
 * run; and the histogram `nodejs_eventloop_delay_seconds`, its counts before and after), the
 * database pool's waiting queries (a gauge, sampled every 500 ms) and the time queries waited
 * for a connection (the histogram `db_pool_wait_seconds`, before and after).
 */
import pg from "pg";
import { clientRecordLines } from "../../core/reply-guarantee.ts";
import { openDatabase } from "../../server/db/client.ts";
import { clientRecordFigures } from "../../server/gigs/client-record.ts";
import { BENCH_PASSWORD, HEAVY_CLIENT, HEAVY_DIGGER } from "../generate.ts";
import { AUTH_COOKIE_PREFIX } from "../../server/auth/auth.ts";
import { answerProblem, missingTexts, type Expectation } from "./expect.ts";
import { BROWSER_ACCEPT_ENCODING, load, type LoadResult } from "./load.ts";
import { metric, METRICS_TOKEN, scrape } from "./metrics.ts";
import { openLoad } from "./open-loop.ts";
import { startServer, type BenchServer } from "./server.ts";

const CONNECTIONS = 10;
/**
 * Seconds of load per page before anything is timed, thrown away: a fresh server's first
 * thousand requests pay for V8's compiling and its heap growing (a first 10 s round read 16.9 ms
 * of CPU a request where the next read 11.0, bench/results/history.md).
 */
const WARMUP_SECONDS = 10;

/** `page` loaded at 10 connections for WARMUP_SECONDS, nothing recorded. */
export async function warmUp(server: BenchServer, page: SignedInTarget): Promise<void> {
  await refreshCookies(server, page.person);
  await load(server.url, page.path, CONNECTIONS, WARMUP_SECONDS, { cookie: page.person.cookie });
}

interface ServerFigures {
  /** Server CPU (user + system) per answered request. */
  cpuMsPerRequest: number;
  /** Event-loop delay over the run, from /metrics. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** Queries waiting for a pool connection, sampled every 500 ms. */
  poolWaiting: { max: number; mean: number; samples: number };
  /** The histograms' counts over the run: p99 as the upper bound of its bucket, and the slow share. */
  loopDelayHistogram: HistogramFigures;
  poolWaitHistogram: HistogramFigures;
}

export interface HistogramFigures {
  count: number;
  /** The bucket bound (ms) at or under which 99% of the run's samples fell (Infinity: above the last). */
  p99AtMostMs: number;
  /** Samples over 50 ms. */
  over50ms: number;
}

export type SignedInRun = LoadResult & ServerFigures & { offeredRate?: number };

export interface SignedInPage {
  name: string;
  path: string;
  as: string;
  closed: SignedInRun[];
  open: SignedInRun | null;
}

export interface Person {
  id: string;
  name: string;
  cookie: string;
}

async function signIn(server: BenchServer, client: pg.Client, userId: string): Promise<Person> {
  const { rows } = await client.query<{ email: string; full_name: string }>("select email, full_name from users where id = $1", [userId]);
  const user = rows[0];
  if (!user) throw new Error(`bench: no user ${userId} in the bench database (the generator makes it)`);
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email: user.email, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`bench: sign-in of ${user.email} answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { id: userId, name: user.full_name, cookie };
}

/**
 * A `Cookie` header after a response's `Set-Cookie` lines, as a browser keeps it: each cookie
 * set replaces its namesake, one set empty or with `Max-Age=0` is dropped.
 */
export function withSetCookies(cookie: string, setCookies: string[]): string {
  const jar = new Map(
    cookie
      .split(";")
      .map((c) => c.trim())
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c] as const),
  );
  for (const line of setCookies) {
    const pair = line.split(";")[0]!.trim();
    const name = pair.slice(0, pair.indexOf("="));
    if (pair.endsWith("=") || /;\s*max-age=0\s*(;|$)/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/**
 * The person's cookies as a browser would hold them at the start of a minute: the session's
 * signed cookie (decision 0053; `__Secure-` in production) written afresh by Better Auth's get-session read from the
 * database (`disableCookieCache`), so that it outlives a load run of up to 60 s. A load run
 * that kept sending the sign-in's cookies would have every request past that cookie's minute
 * read the session from the database and sign a new cookie, which no browser does (it keeps
 * the new one).
 */
export async function refreshCookies(server: BenchServer, person: Person): Promise<void> {
  // A server from before the signed cookie (bench:ab's older side) never set one: it reads the
  // session from the database on every request, whatever the cookies' age.
  if (!person.cookie.includes(`${AUTH_COOKIE_PREFIX}.session_data=`)) return;
  const response = await fetch(`${server.url}/api/auth/get-session?disableCookieCache=true`, { headers: { cookie: person.cookie } });
  await response.arrayBuffer();
  const setCookies = response.headers.getSetCookie();
  if (!response.ok || !setCookies.some((c) => c.split("=")[0]!.endsWith(`${AUTH_COOKIE_PREFIX}.session_data`))) {
    throw new Error(`bench: get-session answered ${response.status} without a fresh session cookie for ${person.name}`);
  }
  person.cookie = withSetCookies(person.cookie, setCookies);
}

/** The texts a page must show, and ids of which it must show at least `least`. */
interface Check {
  expectation: Expectation;
  some?: { ids: string[]; least: number; what: string };
}

export async function check(server: BenchServer, path: string, cookie: string, { expectation, some }: Check) {
  const response = await fetch(server.url + path, {
    redirect: "manual",
    headers: { accept: "text/html", "accept-encoding": BROWSER_ACCEPT_ENCODING, cookie },
  });
  if (response.headers.get("x-page-cache")) throw new Error(`bench: signed-in ${path} came from the page cache`);
  const body = await response.text();
  const problem = answerProblem(path, response.status, body, expectation, response.headers.get("location"));
  if (problem) throw new Error(`bench: ${problem}; the measurement would not time what it names`);
  if (some) {
    const shown = some.ids.length - missingTexts(body, some.ids).length;
    if (shown < some.least) throw new Error(`bench: ${path} shows ${shown} of ${some.what}, not at least ${some.least}`);
  }
}

/** A histogram's change between two scrapes (cumulative bucket counts by `le`). */
export function histogramDelta(before: string, after: string, name: string): HistogramFigures {
  const buckets = (text: string) =>
    new Map(
      [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} ([0-9.eE+-]+)$`, "gm"))].map((m) => [m[1]!, Number(m[2])] as const),
    );
  const [was, now] = [buckets(before), buckets(after)];
  const delta = [...now].map(([le, n]) => ({ le: le === "+Inf" ? Infinity : Number(le), n: n - (was.get(le) ?? 0) }));
  delta.sort((a, b) => a.le - b.le);
  const count = delta.at(-1)?.n ?? 0;
  const p99 = delta.find((b) => b.n >= count * 0.99)?.le ?? Infinity;
  const atMost50 = delta.find((b) => b.le >= 0.05)?.n ?? count;
  return { count, p99AtMostMs: count ? p99 * 1000 : 0, over50ms: count - atMost50 };
}

/** A load run with the server's own figures around it. */
export async function measured(server: BenchServer, run: () => Promise<LoadResult>): Promise<SignedInRun> {
  const before = await scrape(server); // also resets the event-loop histogram
  const waiting: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const text = await scrape(server).catch(() => "");
      const value = metric(text, "db_pool_waiting_requests");
      if (Number.isFinite(value)) waiting.push(value);
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  let result: LoadResult;
  try {
    result = await run();
  } finally {
    sampling = false;
    await sampler;
  }
  const after = await scrape(server);
  const cpu = metric(after, "process_cpu_seconds_total") - metric(before, "process_cpu_seconds_total");
  // The sampler's own scrapes cost CPU too (each asks the job queue its depth): two a second.
  const ms = (seconds: number) => Math.round(seconds * 1000 * 100) / 100;
  return {
    ...result,
    cpuMsPerRequest: result.requests > 0 ? Math.round(((cpu * 1000) / result.requests) * 100) / 100 : 0,
    eventLoopDelayMs: {
      p50: ms(metric(after, "nodejs_eventloop_lag_p50_seconds")),
      p99: ms(metric(after, "nodejs_eventloop_lag_p99_seconds")),
      max: ms(metric(after, "nodejs_eventloop_lag_max_seconds")),
    },
    loopDelayHistogram: histogramDelta(before, after, "nodejs_eventloop_delay_seconds"),
    poolWaitHistogram: histogramDelta(before, after, "db_pool_wait_seconds"),
    poolWaiting: {
      max: waiting.length ? Math.max(...waiting) : 0,
      mean: waiting.length ? Math.round((waiting.reduce((a, b) => a + b, 0) / waiting.length) * 100) / 100 : 0,
      samples: waiting.length,
    },
  };
}

export function describeRun(r: SignedInRun): string {
  return `${String(r.rps).padStart(6)} req/s  p50 ${r.p50} p99 ${r.p99} max ${r.max} ms  cpu ${r.cpuMsPerRequest} ms/req  loop delay p99 ${r.eventLoopDelayMs.p99} max ${r.eventLoopDelayMs.max} ms (ticks > 50 ms: ${r.loopDelayHistogram.over50ms})  pool waiting max ${r.poolWaiting.max}, wait p99 <= ${r.poolWaitHistogram.p99AtMostMs} ms (> 50 ms: ${r.poolWaitHistogram.over50ms})  errors ${r.errors + r.timeouts + r.non2xx}`;
}

export interface SignedInTarget {
  name: string;
  path: string;
  person: Person;
  check: Check;
}

/**
 * The four pages of issue 35 (bench:ab and bench:profile compare them with older builds), signed
 * in as the bench's heavy digger and client (bench/generate.ts); with `later`, also the pages
 * added since, which older builds do not have: the code step (issue 49), the Visits list
 * (issue 50), Compare Quotes, a gig page with its client's record, and the conversation (a thread
 * of 500 messages and the inbox, issue 52).
 */
export async function signedInPages(
  server: BenchServer,
  client: pg.Client,
  listed: Expectation,
  { later = false, databaseUrl }: { later?: boolean; databaseUrl?: string } = {},
): Promise<SignedInTarget[]> {
  const digger = await signIn(server, client, HEAVY_DIGGER);
  const clientUser = await signIn(server, client, HEAVY_CLIENT);
  const ids = async (query: string, id: string) => (await client.query<{ id: string }>(query, [id])).rows.map((r) => r.id);
  const clientGigs = await ids("select id from gigs where consumer_id = $1", clientUser.id);
  const diggerLeads = await ids(
    "select p.id from lead_purchases p join digger_profiles d on d.id = p.digger_id where d.user_id = $1 and p.status = 'completed'",
    digger.id,
  );
  const named = (person: Person, what: string, texts: string[] = []): Expectation => ({ what: `${what}, signed in as ${person.name}`, texts: [person.name, ...texts] });
  const pages: SignedInTarget[] = [
    { name: "browse gigs (digger)", path: "/browse-gigs", person: digger, check: { expectation: named(digger, listed.what, listed.texts) } },
    {
      name: "my gigs (client, 50 gigs)",
      path: "/my-gigs",
      person: clientUser,
      check: { expectation: named(clientUser, "My Gigs"), some: { ids: clientGigs, least: 20, what: `the client's ${clientGigs.length} gigs` } },
    },
    {
      name: "my leads (digger, 50 leads)",
      path: "/my-leads",
      person: digger,
      check: { expectation: named(digger, "My Leads"), some: { ids: diggerLeads, least: 20, what: `the digger's ${diggerLeads.length} leads` } },
    },
    { name: "notifications", path: "/notifications", person: digger, check: { expectation: named(digger, "Notifications", ["Notifications"]) } },
  ];
  if (!later) return pages;
  if (!databaseUrl) throw new Error("bench: the later signed-in pages need the database's URL");
  await waitingCode(client, clientUser.id);
  const visitThreads = await benchVisits(client, digger.id);
  const compared = await benchQuotes(client, clientUser.id);
  const recordGig = await gigWithRecord(client, databaseUrl);
  const talk = await benchThread(client, digger.id);
  return [
    ...pages,
    {
      name: "verify phone (client)",
      path: "/verify-phone?next=/my-gigs",
      person: clientUser,
      check: { expectation: named(clientUser, "The code step", ["Verify Your Phone", "We sent a 6-digit code to", BENCH_PHONE.shown]) },
    },
    {
      name: "visits (digger, 40 visits)",
      path: "/visits",
      person: digger,
      check: {
        expectation: named(digger, "The Visits list", ["Visits", "Upcoming", "Visit booked: "]),
        some: { ids: visitThreads.map((id) => `/messages/${id}`), least: 15, what: `the links to the threads of the digger's ${visitThreads.length} visits` },
      },
    },
    {
      name: `compare quotes (client, ${compared.handles.length} quotes)`,
      path: `/my-gigs/${compared.gigId}/quotes`,
      person: clientUser,
      check: { expectation: named(clientUser, "Compare Quotes", ["Compare Quotes", ...compared.handles]) },
    },
    {
      name: "gig page (digger, client's record)",
      path: `/gig/${recordGig.id}`,
      person: digger,
      check: { expectation: named(digger, "the gig's title and its client's record", [recordGig.title, ...recordGig.recordLines]) },
    },
    {
      name: `thread of ${BENCH_THREAD_MESSAGES} (digger)`,
      path: `/messages/${talk.threadId}`,
      person: digger,
      check: { expectation: named(digger, "the thread's newest message", [talk.lastText]) },
    },
    {
      name: "inbox (digger)",
      path: "/messages",
      person: digger,
      check: { expectation: named(digger, "the inbox with the bench's thread first", [talk.threadId, talk.lastText]) },
    },
  ];
}

const BENCH_THREAD_MESSAGES = 500;

/**
 * The heavy digger's conversation (issue 52: the thread and the inbox profiled beside the other
 * pages): their newest thread by id gets 500 messages, the parties taking turns, written once
 * per bench database with the triggers on as a send writes them, all read (no notice owed) and
 * told (the tell sweep leaves them alone); its activity the newest of the digger's threads, so
 * the inbox lists it first. Returns the thread and the text of its newest message.
 */
async function benchThread(client: pg.Client, diggerUserId: string): Promise<{ threadId: string; lastText: string }> {
  const { rows } = await client.query<{ id: string }>("select id from threads where digger_user_id = $1 order by id desc limit 1", [diggerUserId]);
  const threadId = rows[0]?.id;
  if (!threadId) throw new Error("bench: the heavy digger has no thread (the generator makes them)");
  const lastText = `Bench message ${BENCH_THREAD_MESSAGES} of the bench thread.`;
  await client.query("begin");
  try {
    await client.query(
      `insert into messages (thread_id, sender_id, body, created_at, told_at)
       select t.id, case when j % 2 = 0 then t.digger_user_id else t.client_id end,
              'Bench message ' || j || ' of the bench thread.', now() - make_interval(secs => $2 - j), now()
       from threads t cross join generate_series(1, $2::int) j
       where t.id = $1 and not exists (select 1 from messages m where m.thread_id = t.id)
       order by j`,
      [threadId, BENCH_THREAD_MESSAGES],
    );
    await client.query(
      `update threads set last_message_seq = m.last, digger_read_seq = m.last, client_read_seq = m.last,
              digger_read_at = m.at, client_read_at = m.at, last_activity_at = greatest(m.at, now())
       from (select max(seq) as last, max(created_at) as at from messages where thread_id = $1) m where threads.id = $1`,
      [threadId],
    );
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
  return { threadId, lastText };
}

/**
 * Compare Quotes of the heavy client (issue 52): their gig with the most threads gets one open
 * quote from each of its diggers, written once per bench database. Returns the gig and the
 * diggers' handles the page must show.
 */
async function benchQuotes(client: pg.Client, clientUserId: string): Promise<{ gigId: string; handles: string[] }> {
  const { rows: gigRows } = await client.query<{ gig_id: string }>(
    `select p.gig_id from lead_purchases p join gigs g on g.id = p.gig_id join threads t on t.purchase_id = p.id
     where g.consumer_id = $1 and p.status = 'completed' group by p.gig_id order by count(*) desc, p.gig_id limit 1`,
    [clientUserId],
  );
  const gigId = gigRows[0]?.gig_id;
  if (!gigId) throw new Error("bench: the heavy client has no gig with threads (the generator makes them)");
  await client.query(
    `insert into quotes (thread_id, gig_id, digger_id, type, amount_cents, included, valid_until, expires_at, status)
     select t.id, p.gig_id, p.digger_id, 'fixed', 120000 + 5000 * row_number() over (order by t.id), 'Labour, materials and the clean-up after.',
            (now() + interval '30 days')::date, now() + interval '30 days', 'open'
     from lead_purchases p join threads t on t.purchase_id = p.id
     where p.gig_id = $1 and p.status = 'completed' and not exists (select 1 from quotes q where q.thread_id = t.id)`,
    [gigId],
  );
  const { rows } = await client.query<{ handle: string }>(
    "select d.handle from quotes q join digger_profiles d on d.id = q.digger_id where q.gig_id = $1 and q.status = 'open' and q.expires_at > now()",
    [gigId],
  );
  if (rows.length < 2) throw new Error(`bench: Compare Quotes of gig ${gigId} would show ${rows.length} quotes, not 2 or more`);
  return { gigId, handles: rows.map((row) => row.handle) };
}

/**
 * A gig for sale whose client has the longest record (issue 48: the record's lines on the gig
 * page), newest first among those, and the lines the app writes of that record.
 */
async function gigWithRecord(client: pg.Client, databaseUrl: string): Promise<{ id: string; title: string; recordLines: string[] }> {
  const { rows } = await client.query<{ id: string; title: string; client_id: string }>(
    `select g.id, g.title, g.consumer_id as client_id from gigs g join client_records r on r.client_id = g.consumer_id
     where g.status = 'open' and g.published and g.deleted_at is null and g.purchase_count < g.max_diggers
     order by r.leads desc, g.created_at desc limit 1`,
  );
  const gig = rows[0];
  if (!gig) throw new Error("bench: no gig for sale whose client has a record (generator v4 writes records)");
  const handle = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 1 });
  try {
    const record = (await clientRecordFigures(handle.db, [gig.client_id])).get(gig.client_id)!;
    const recordLines = clientRecordLines(record);
    if (recordLines.length === 0) throw new Error(`bench: the client of gig ${gig.id} has no record line to show`);
    return { id: gig.id, title: gig.title, recordLines };
  } finally {
    await handle.close();
  }
}

/**
 * The heavy digger's visits (issue 50), written once per bench database as a booking leaves
 * them: one in each of 40 of their threads, a day apart, the first 14 past (marked 'Visited'),
 * the others to come; /visits lists 20 of them (upcoming first). Returns the threads.
 */
async function benchVisits(client: pg.Client, diggerUserId: string): Promise<string[]> {
  await client.query(
    `with t as (
       select id, digger_user_id, client_id, row_number() over (order by id) as n from threads
       where digger_user_id = $1 and not exists (select 1 from visits where digger_user_id = $1)
       order by id limit 40),
     p as (
       insert into visit_proposals (thread_id, zone, status, booked_position, decided_at)
       select id, 'America/Chicago', 'booked', 0, now() from t returning id, thread_id),
     s as (
       select p.id as proposal_id, t.id as thread_id, t.digger_user_id, t.client_id,
              date_trunc('hour', now()) + (t.n - 15) * interval '1 day' + interval '3 hours' as starts_at
       from p join t on t.id = p.thread_id),
     o as (
       insert into visit_options (proposal_id, position, starts_at, window_minutes) select proposal_id, 0, starts_at, 60 from s)
     insert into visits (thread_id, digger_user_id, client_id, proposal_id, starts_at, window_minutes, ends_at, digger_outcome, digger_marked_at)
     select thread_id, digger_user_id, client_id, proposal_id, starts_at, 60, starts_at + interval '1 hour',
            case when starts_at + interval '1 hour' < now() then 'visited' end, case when starts_at + interval '1 hour' < now() then now() end
     from s`,
    [diggerUserId],
  );
  const { rows } = await client.query<{ thread_id: string }>("select distinct thread_id from visits where digger_user_id = $1", [diggerUserId]);
  return rows.map((row) => row.thread_id);
}

/**
 * Phone verification on in the bench's production-mode server, so that the code step shows the
 * code (no text is sent by a page's read: the endpoint is never asked).
 */
export const PHONE_VERIFICATION_ON = { SMS_PROVIDER: "sns", SMS_SNS_REGION: "us-east-1", SMS_SNS_ENDPOINT: "https://127.0.0.1:9" };

/** The heavy client's waiting code (issue 49): the code step reads it by the account's key. */
const BENCH_PHONE = { e164: "+15125550100", shown: "+1 512 555 0100" };

async function waitingCode(client: pg.Client, userId: string): Promise<void> {
  await client.query(
    `insert into phone_codes (user_id, phone, code_hash, expires_at) values ($1, $2, 'bench', now() + interval '1 day')
     on conflict (user_id) do update set phone = excluded.phone, expires_at = excluded.expires_at, tries_left = 5`,
    [userId, BENCH_PHONE.e164],
  );
}

export async function signedInCase(options: {
  databaseUrl: string;
  buildDir: string;
  duration: number;
  rounds: number;
  /** Browse Gigs' 20 gigs, signed out (lib/expect.ts): the digger's page lists them too. */
  listed: Expectation;
  /** The open loop's offered rate per page, in the order of signedInPages (default: half this run's best). */
  openRates?: number[];
  cpus?: string;
  log: (line: string) => void;
}): Promise<SignedInPage[]> {
  const { databaseUrl, buildDir, duration, rounds, listed, openRates, cpus, log } = options;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const server = await startServer({ kind: "postgres", url: databaseUrl }, buildDir, { METRICS_TOKEN, ...PHONE_VERIFICATION_ON }, cpus);
  try {
    const pages = await signedInPages(server, client, listed, { later: true, databaseUrl });
    for (const page of pages) {
      await check(server, page.path, page.person.cookie, page.check);
      await warmUp(server, page);
    }
    const results: SignedInPage[] = pages.map((p) => ({ name: p.name, path: p.path, as: p.person.name, closed: [], open: null }));
    // Rounds take the pages in turn, so that the machine's drifting load falls on each.
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, page] of pages.entries()) {
        await refreshCookies(server, page.person);
        const run = await measured(server, () => load(server.url, page.path, CONNECTIONS, duration, { cookie: page.person.cookie }));
        results[i]!.closed.push(run);
        log(`  signed-in ${page.name.padEnd(28)} c=${CONNECTIONS} round ${round + 1}: ${describeRun(run)}`);
      }
    }
    for (const [i, page] of pages.entries()) {
      const rate = openRates?.[i] ?? Math.max(1, Math.floor(Math.max(...results[i]!.closed.map((r) => r.rps)) / 2));
      await refreshCookies(server, page.person);
      const run = await measured(server, () => openLoad(server.url, page.path, rate, duration, { cookie: page.person.cookie }));
      results[i]!.open = { ...run, offeredRate: rate };
      log(`  signed-in ${page.name.padEnd(28)} offered ${rate}/s: ${describeRun(run)}`);
    }
    // Still signed in and still the same pages after the load (no expired session timed).
    for (const page of pages) await check(server, page.path, page.person.cookie, page.check);
    return results;
  } finally {
    await server.stop();
    await client.end();
  }
}
