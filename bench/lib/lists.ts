/**
 * The other lists of this stage (issue 35, "Nothing grows with the data that should not"; only
 * when asked: `--only lists`): a thread's quotes, the client's Compare Quotes and the devices on
 * /account, each read by the app's own function (`threadQuotes`, `quoteComparison`,
 * `pushDevicesCard`) against the two databases of the messages case (made or checked first), one
 * with `SMALL` rows in each table and one with about 100 times as many:
 *  - quotes: 10 versions per thread (9 replaced, the last open, each naming the one it replaces)
 *    in the first rows/10 threads, the heavy digger's long thread among them;
 *  - devices: 10 per user (the per-account limit) for the first rows/10 users, the heavy digger
 *    first, each on a session of its own user (one per user).
 * Figures per list and size: the calls' p50 and p99 in this process, one after another over the
 * pool (no server: what grows with the rows is the SQL), and the plans of the statements sent.
 */
import pg from "pg";
import type { Config } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { pushDevicesCard } from "../../server/push/devices.ts";
import { quoteComparison } from "../../server/conversations/compare-quotes.ts";
import { threadQuotes } from "../../server/conversations/thread-quotes.ts";
import { HEAVY_DIGGER } from "../generate.ts";
import { withoutSecondaryIndexes } from "./bulk.ts";
import { recordedPlans, type StatementPlan } from "./message-plans.ts";
import { messagesDatabase } from "./messages.ts";
import { readerTime } from "../../server/reader-time.ts";

const SMALL = 10_000;
const VERSIONS = 10;
const DEVICES = 10;
const FILL_VERSION = 1;
const marker = (table: string, rows: number) => `bench ${table} v${FILL_VERSION}: ${rows} rows`;

export interface ListSize {
  database: string;
  quotes: number;
  devices: number;
  /** Per list: the calls' p50 and p99 (ms). */
  calls: Record<string, { p50: number; p99: number }>;
  plans: StatementPlan[];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/** Quotes and devices for a database of `rows` messages, once (a marker comment on each table). */
async function fill(client: pg.Client, rows: number, log: (line: string) => void) {
  const { rows: state } = await client.query<{ quotes: string | null; devices: string | null }>(
    "select obj_description('quotes'::regclass, 'pg_class') as quotes, obj_description('push_subscriptions'::regclass, 'pg_class') as devices",
  );
  if (state[0]!.quotes !== marker("quotes", rows)) {
    const started = performance.now();
    await client.query("begin");
    await client.query("set local session_replication_role = replica");
    await client.query("set local maintenance_work_mem = '512MB'");
    await client.query("truncate quotes cascade");
    await withoutSecondaryIndexes(client, "quotes", async () => {
      // The long thread first, then the others by id; version j replaces version j - 1.
      await client.query(
        `insert into quotes (id, thread_id, gig_id, digger_id, replaces_id, type, amount_cents, included, valid_until, expires_at, status, created_at)
         select md5('bench-quote-' || t.n || '-' || j)::uuid, t.id, p.gig_id, p.digger_id,
                case when j > 1 then md5('bench-quote-' || t.n || '-' || (j - 1))::uuid end,
                'fixed', 100000 + j * 2500, 'Labour, materials and the clean-up after.',
                (t.created_at + interval '30 days')::date, t.created_at + interval '30 days',
                case when j = ${VERSIONS} then 'open' else 'replaced' end, t.created_at + make_interval(mins => j)
         from (select id, purchase_id, created_at, row_number() over (order by digger_user_id = $1 desc, id)::int as n
               from threads order by digger_user_id = $1 desc, id limit ${rows / VERSIONS}) t
         join lead_purchases p on p.id = t.purchase_id
         cross join generate_series(1, ${VERSIONS}) j`,
        [HEAVY_DIGGER],
      );
    });
    await client.query(`comment on table quotes is '${marker("quotes", rows)}'`);
    await client.query("commit");
    await client.query("vacuum analyze quotes");
    log(`  quotes: ${rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (state[0]!.devices !== marker("devices", rows)) {
    const started = performance.now();
    await client.query("begin");
    await client.query("set local session_replication_role = replica");
    await client.query("delete from push_subscriptions");
    await client.query("delete from sessions where id like 'bench-session-%'");
    await client.query(
      `create temp table bench_device_users on commit drop as
       select id, created_at from users order by id = $1 desc, id limit ${rows / DEVICES}`,
      [HEAVY_DIGGER],
    );
    await client.query(
      `insert into sessions (id, token, user_id, expires_at, user_agent, created_at, updated_at)
       select 'bench-session-' || u.id, 'bench-token-' || u.id, u.id, now() + interval '30 days', 'Bench', now(), now() from bench_device_users u`,
    );
    await withoutSecondaryIndexes(client, "push_subscriptions", async () => {
      await client.query(
        `insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth, device, created_at)
         select u.id, 'bench-session-' || u.id, 'https://push.bench.example/' || md5(u.id || '-' || j), 'bench-p256dh-' || j, 'bench-auth-' || j,
                'Chrome on Linux', u.created_at + make_interval(days => j)
         from bench_device_users u cross join generate_series(1, ${DEVICES}) j`,
      );
    });
    await client.query(`comment on table push_subscriptions is '${marker("devices", rows)}'`);
    await client.query("commit");
    await client.query("vacuum analyze push_subscriptions");
    await client.query("vacuum analyze sessions");
    log(`  devices: ${rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

export async function listsCase(options: { pgServer: string; gigs: number; large: number; calls: number; log: (line: string) => void }): Promise<ListSize[]> {
  const { pgServer, gigs, large, calls, log } = options;
  const results: ListSize[] = [];
  let first: string | null = null;
  for (const size of [SMALL, large]) {
    const world = await messagesDatabase(pgServer, gigs, size, first, log);
    first ??= world.name;
    const client = new pg.Client({ connectionString: world.url });
    await client.connect();
    let counts: { quotes: number; devices: number; gig: string; client: string };
    try {
      await fill(client, size, log);
      const { rows } = await client.query<{ quotes: number; devices: number; gig: string; client: string }>(
        `select (select count(*)::int from quotes) as quotes, (select count(*)::int from push_subscriptions) as devices,
                p.gig_id as gig, t.client_id as client
         from threads t join lead_purchases p on p.id = t.purchase_id where t.id = $1`,
        [world.longThread],
      );
      counts = rows[0]!;
    } finally {
      await client.end();
    }
    const config = { push: { publicKey: "bench", privateKey: "bench", subject: "mailto:bench@example.com" } } as Config;
    const lists = {
      "thread quotes": (db: Database) => threadQuotes(db, HEAVY_DIGGER, world.longThread),
      "compare quotes": (db: Database) => quoteComparison(db, counts.client, counts.gig),
      devices: (db: Database) => pushDevicesCard(db, config, HEAVY_DIGGER, undefined, readerTime(null, { defaultTimeZone: "UTC" })),
    };
    const handle = await openDatabase({ kind: "postgres", url: world.url, poolSize: 2 });
    const timed: ListSize["calls"] = {};
    try {
      for (const [name, run] of Object.entries(lists)) {
        for (let i = 0; i < 20; i += 1) await run(handle.db);
        const times: number[] = [];
        for (let i = 0; i < calls; i += 1) {
          const t = performance.now();
          await run(handle.db);
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        timed[name] = { p50: Math.round(quantile(times, 0.5) * 100) / 100, p99: Math.round(quantile(times, 0.99) * 100) / 100 };
        log(`  ${String(size).padStart(8)} rows, ${name.padEnd(14)}: p50 ${timed[name].p50} ms, p99 ${timed[name].p99} ms over ${calls} calls`);
      }
    } finally {
      await handle.close();
    }
    const plans = await recordedPlans(world.url, lists);
    for (const plan of plans) log(`    ${plan.page}: ${plan.executionMs} ms; ${plan.scans.join(" | ")}`);
    results.push({ database: world.name, quotes: counts.quotes, devices: counts.devices, calls: timed, plans });
  }
  return results;
}
