/**
 * The reply guarantee's sweep at scale (issue 48; server/leads/settle-guarantee.ts): for each
 * size, a fresh database (`dg_bench_guarantee_<n>` on BENCH_PG_SERVER) with `n` completed
 * purchases and their threads, of which `--due` (default 10,000) fell due at once; the rest are
 * settled long ago (half), not covered (a quarter) or due later (a quarter: in the due index, past
 * its range). The due ones' threads show what a client does: opened (60%), wrote (10%), hired
 * (10%) or nothing (20%: refunded, or escalated past the digger's 3 in 30 days). Then one
 * `sweepDueGuarantees` (what the `guarantee.sweep` job runs), in process through the app's own
 * services (the test payment provider, the mail outbox), timed, with its outcomes, what is left
 * due, and the plan of its round's query. Sizes by `--purchases a,b` (default 100000,200000):
 * the time should stay flat as purchases grow, since only the due rows are read.
 *
 *   npm run bench:guarantee
 *   npm run bench:guarantee -- --purchases 100000,200000 --due 10000
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { loadConfig } from "../server/config.ts";
import { openDatabase, queryRows } from "../server/db/client.ts";
import { seedCategories } from "../server/db/seed/index.ts";
import { sweepDueGuarantees } from "../server/leads/settle-guarantee.ts";
import { createLogger } from "../server/logger.ts";
import { closeServices, createServices } from "../server/services.ts";
import { DEFAULT_PG_SERVER } from "./generate.ts";
import { freshDatabase } from "./lib/fresh-database.ts";

const { values: args } = parseArgs({
  options: { purchases: { type: "string", default: "100000,200000" }, due: { type: "string", default: "10000" } },
});
const sizes = args.purchases.split(",").map(Number);
const DUE = Number(args.due);
const CLIENTS = 5_000;
const DIGGERS = 2_000;

/** Fills the database at `url` (migrated, empty) with `n` completed purchases, `due` of them due now; triggers off, as bench/generate.ts loads. */
async function seed(url: string, n: number, due: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    await client.query("set local session_replication_role = replica");
    await client.query(`insert into users (id, full_name, email, email_verified, user_type, created_at, updated_at)
      select 'bench-' || kind || '-' || j, 'Bench ' || kind || j, kind || j || '@bench.example', true,
             case kind when 'c' then 'consumer' else 'digger' end, now() - interval '400 days', now()
      from (select 'c' as kind, generate_series(1, ${CLIENTS}) as j union all select 'd', generate_series(1, ${DIGGERS})) u`);
    await client.query(`insert into digger_profiles (id, user_id, handle, business_name, phone, location, profession, bio, created_at, updated_at)
      select md5('bench-digger-' || j)::uuid, 'bench-d-' || j, 'bench_' || j, 'Bench Co ' || j, '+1 555 0100', 'Austin, TX',
             'Plumber', 'Twenty years of pipes.', now() - interval '400 days', now()
      from generate_series(1, ${DIGGERS}) j`);
    // Row i: its gig, its one purchase (a digger by i), its thread. Due rows are the first `due`.
    await client.query(`insert into gigs (id, consumer_id, title, description, location, timeline, category_id, status,
                                          purchase_count, published, visible_since, created_at, updated_at)
      select md5('bench-gig-' || i)::uuid, 'bench-c-' || (1 + i % ${CLIENTS}), 'Bench gig ' || i,
             'We are looking for help with a small job at our kitchen.', 'Austin, TX', 'Flexible',
             (select id from categories where parent_category_id is not null order by slug limit 1), 'open', 1, true,
             now() - interval '60 days', now() - interval '60 days', now()
      from generate_series(1, ${n}) i`);
    // Kinds by row: due (i <= due); then of the rest by i % 4: 0, 1 settled long ago, 2 not covered, 3 due later.
    await client.query(`insert into lead_purchases (id, gig_id, digger_id, amount_paid_cents, status, provider, provider_session_id,
                                                    created_at, purchased_at, guarantee_due_at, guarantee_outcome, guarantee_settled_at)
      select md5('bench-purchase-' || i)::uuid, md5('bench-gig-' || i)::uuid, md5('bench-digger-' || (1 + i % ${DIGGERS}))::uuid,
             5000, 'completed', 'test', 'bench_' || i, bought, bought,
             case when i <= ${due} then now() - make_interval(secs => 1 + i % 3000)
                  when i % 4 in (0, 1) then bought + interval '50 hours'
                  when i % 4 = 3 then now() + make_interval(secs => 3600 + i % (46 * 3600)) end,
             case when i > ${due} and i % 4 in (0, 1) then 'answered' end,
             case when i > ${due} and i % 4 in (0, 1) then bought + interval '30 hours' end
      from (select i, case when i <= ${due} then now() - interval '49 hours'
                           when i % 4 = 3 then now() - interval '10 hours'
                           else now() - make_interval(days => 3 + i % 300) end as bought
            from generate_series(1, ${n}) i) p`);
    // The due rows' evidence by i % 10: 0-5 opened, 6 wrote, 7 hired, 8-9 nothing.
    await client.query(`insert into threads (purchase_id, digger_user_id, client_id, last_activity_at, created_at,
                                             digger_first_at, digger_messages, client_opened_at, client_messages, client_first_reply_at)
      select p.id, 'bench-d-' || (1 + i % ${DIGGERS}), 'bench-c-' || (1 + i % ${CLIENTS}), p.purchased_at, p.purchased_at,
             p.purchased_at + interval '1 hour', 1,
             case when i <= ${due} and i % 10 < 6 then now() - interval '2 hours' when i > ${due} and i % 4 <> 2 then p.purchased_at + interval '3 hours' end,
             case when i <= ${due} and i % 10 = 6 then 1 else 0 end,
             case when i <= ${due} and i % 10 = 6 then now() - interval '3 hours' end
      from generate_series(1, ${n}) i join lead_purchases p on p.id = md5('bench-purchase-' || i)::uuid`);
    await client.query(`insert into hires (gig_id, digger_id, created_at)
      select md5('bench-gig-' || i)::uuid, md5('bench-digger-' || (1 + i % ${DIGGERS}))::uuid, now() - interval '1 hour'
      from generate_series(1, ${due}) i where i % 10 = 7`);
    await client.query(`update gigs set hired = true where id in (select gig_id from hires)`);
    await client.query("commit");
    await client.query("vacuum analyze");
  } finally {
    await client.end();
  }
}

const logger = createLogger("warn");
const server = process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER;
console.log(`guarantee sweep: ${DUE} due at once; sizes ${sizes.join(", ")} completed purchases (${new Date().toISOString()})`);
for (const n of sizes) {
  const url = await freshDatabase(server, `dg_bench_guarantee_${n}`);
  const database = await openDatabase({ kind: "postgres", url });
  await database.migrate();
  await seedCategories(database.db);
  const seeding = performance.now();
  await seed(url, n, DUE);
  const seeded = performance.now() - seeding;
  const config = loadConfig({
    NODE_ENV: "production",
    DATABASE_URL: url,
    PUBLIC_URL: "http://127.0.0.1:1",
    PAYMENTS_PROVIDER: "test",
    MAIL_TRANSPORT: "outbox",
    BETTER_AUTH_SECRET: "bench-secret-not-for-production-0123456789abcdef",
    LOG_LEVEL: "warn",
    SEED_DEMO_DATA: "false",
  });
  const services = createServices(config, database, logger);
  await services.jobs.start();
  const plan = await queryRows<{ "QUERY PLAN": string }>(
    database.db,
    sql`explain (format text) select id from lead_purchases where guarantee_due_at is not null and guarantee_outcome is null and guarantee_due_at <= now() and status = 'completed' order by guarantee_due_at limit 500`,
  );
  const started = performance.now();
  const outcomes = await sweepDueGuarantees(services);
  const ms = performance.now() - started;
  const [left] = await queryRows<{ due: number; refunds: number; jobs: number; emails: number }>(
    database.db,
    sql`select (select count(*)::int from lead_purchases where guarantee_due_at <= now() and guarantee_outcome is null) as due,
               (select count(*)::int from refunds where reason = 'reply_guarantee') as refunds,
               (select count(*)::int from pgboss.job) as jobs,
               (select count(*)::int from emails) as emails`,
  );
  const settled = Object.values(outcomes).reduce((a, b) => a + b, 0);
  console.log(
    [
      `\n${n.toLocaleString("en-US")} purchases (seeded in ${(seeded / 1000).toFixed(1)} s)`,
      `  sweep: ${settled} settled in ${(ms / 1000).toFixed(2)} s (${(ms / Math.max(1, settled)).toFixed(2)} ms each), one pass`,
      `  outcomes: ${JSON.stringify(outcomes)}`,
      `  left due: ${left!.due}; refunds by the guarantee: ${left!.refunds}; jobs enqueued: ${left!.jobs}; e-mails recorded: ${left!.emails}`,
      `  the round's plan:\n${plan.map((row) => `    ${row["QUERY PLAN"]}`).join("\n")}`,
    ].join("\n"),
  );
  await closeServices(services);
  await database.close();
}
