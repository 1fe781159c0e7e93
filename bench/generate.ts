/**
 * Fills a database with N gigs, N/4 clients, N/5 diggers (categories, references),
 * completed lead purchases, hires and reviews, in a few INSERT ... SELECT statements over
 * generate_series.
 *
 * The load runs with the triggers off (session_replication_role = replica), so every column
 * a trigger or the app keeps is written here as they would have written it (gigs.published,
 * visible_since, owner_suspended, purchase_count; the diggers' average_rating, total_ratings,
 * completion_rate; a thread per completed purchase, migration 0029), and `verifyGenerated` reads the result back: Browse Gigs' own query must
 * list the expected gigs, the triggers' rules must hold on every row, and the triggers' own
 * function must give a sample of diggers the figures written here. Generation fails otherwise.
 *
 * Every "random" choice is a hash of the row number (hashint8), so a given N always yields
 * the same data. The database is marked complete (a comment on the database, with the
 * generator's version) only when the load has committed: a second run with the same N and
 * version only verifies; a database of an older version is made afresh; a run into a
 * database that holds anything else is refused.
 *
 *   tsx bench/generate.ts --gigs 100000                       # creates dg_bench_100000 on BENCH_PG_SERVER
 *   DATABASE_URL=postgres://.../mydb tsx bench/generate.ts     # an existing, empty database
 *   tsx bench/generate.ts --pglite /tmp/dir --gigs 10000      # embedded PGlite
 */
import { rmSync } from "node:fs";
import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, queryRows, type Database, type DatabaseHandle, type DatabaseTarget, type Transaction } from "../server/db/client.ts";
import { seedCategories } from "../server/db/seed/index.ts";
import { listOpenGigs, parseBrowseFilters } from "../server/gigs/browse.ts";
import { forSale } from "../server/leads/for-sale.ts";
import { PAGE_SIZE } from "../server/pagination.ts";

/** Raise it whenever the generated data changes: a database of another version is made afresh. */
export const GENERATOR_VERSION = 4;
export const DEFAULT_PG_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

export interface Target {
  kind: "postgres" | "pglite";
  /** PostgreSQL: the database URL; PGlite: the data directory. */
  location: string;
}

const marker = (gigs: number) => `digs-and-gigs bench v${GENERATOR_VERSION}: ${gigs} gigs, complete`;
/** The version of the generator that completed a database, from its marker; null: not a bench database. */
export const markerVersion = (comment: string | null | undefined): number | null => {
  const match = /^digs-and-gigs bench v(\d+): \d+ gigs, complete$/.exec(comment ?? "");
  return match ? Number(match[1]) : null;
};

/** A deterministic pseudo-random integer in [0, mod) from a row number and a salt. */
const h = (expr: string, salt: number, mod: number | string) =>
  `(((hashint8((${expr})::bigint * 64 + ${salt})::bigint & 2147483647) % (${mod}))::int)`;
/** One element of a literal text array, chosen by h. */
const pick = (expr: string, salt: number, values: string[]) =>
  `(array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}])[1 + ${h(expr, salt, values.length)}]`;

const CITIES = [
  "Springfield, IL", "Austin, TX", "Portland, OR", "Denver, CO", "Columbus, OH", "Raleigh, NC", "Madison, WI",
  "Tucson, AZ", "Boise, ID", "Richmond, VA", "Omaha, NE", "Tampa, FL", "Albany, NY", "Reno, NV", "Salem, MA",
  "Fresno, CA", "Mesa, AZ", "Tulsa, OK", "Dayton, OH", "Eugene, OR", "Lansing, MI", "Savannah, GA",
  "Burlington, VT", "Provo, UT", "Spokane, WA", "Durham, NC", "Knoxville, TN", "Lincoln, NE", "Remote",
];
const PLACES = [
  "kitchen", "bathroom", "garage", "basement", "backyard", "front porch", "attic", "home office", "rental unit",
  "storefront", "small restaurant", "townhouse", "condo", "farmhouse", "studio apartment", "warehouse", "dental office",
  "community hall", "coffee shop", "guest house",
];
const OPENERS = ["Need", "Looking for", "Seeking", "Hiring for", "Help wanted with", "Quote needed for"];
const SENTENCES = [
  "The work should start as soon as possible and be finished within a few weeks.",
  "Please include your availability and a rough estimate when you get in touch.",
  "Materials can be provided by us or by you, whichever is easier.",
  "Parking is available on site and the space is easy to reach.",
  "References from similar projects would be appreciated.",
  "We have a flexible schedule and can meet on weekends or in the evening.",
  "The previous contractor left the job unfinished, so some cleanup is needed first.",
  "Photos of the current state are available on request.",
  "We are comparing a few quotes and hope to decide by the end of the month.",
  "The building is about thirty years old and has never been renovated.",
  "Insurance and a valid license are required for this kind of work.",
  "Our budget is firm but we are open to suggestions that save money.",
];
const FIRST = ["Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Avery", "Quinn", "Drew", "Robin", "Elena", "Marcus", "Priya", "Tomas", "Grace", "Omar", "Lena", "Victor"];
const LAST = ["Smith", "Garcia", "Nguyen", "Patel", "Johnson", "Kim", "Brown", "Lopez", "Miller", "Davis", "Wilson", "Moore", "Clark", "Lewis", "Young", "Hall"];
const TIMELINES = ["As soon as possible", "Within a week", "Within a month", "1-3 months", "Flexible"];
const TITLES = ["Licensed", "Experienced", "Certified", "Independent", "Local", "Full-service"];
const REVIEWS = [
  "Showed up on time and finished the job as promised.",
  "Clear quote, no surprises on the final bill.",
  "Careful work and the site was left clean every day.",
  "Communication could have been better, but the result is good.",
  "Took longer than planned, though the quality is fine.",
  "Would hire again for the next project without hesitation.",
];
const BIO = [
  "I have worked with homeowners and small businesses across the region for many years.",
  "Every job starts with a free estimate and ends with a clean site.",
  "I am fully insured and happy to share references from recent clients.",
  "Clear communication and fair prices are what my customers value most.",
  "I specialise in careful, detailed work and I never cut corners.",
  "Evenings and weekends are available for urgent jobs.",
];

export interface GenerateResult {
  gigs: number;
  skipped: boolean;
  seconds: number;
  counts: Record<string, number>;
}

/**
 * The bench databases' names start with this: `BENCH_DB_PREFIX` (default `dg_bench`), so that
 * two checkouts benching on one PostgreSQL server at once (worktrees) keep their own databases.
 */
export const BENCH_DB_PREFIX = process.env.BENCH_DB_PREFIX ?? "dg_bench";

/** The database URL for `<prefix>_<n>` on a server, created when missing. */
export async function benchDatabaseUrl(serverUrl: string, gigs: number): Promise<string> {
  const name = `${BENCH_DB_PREFIX}_${gigs}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function generate(target: Target, gigCount: number, log: (line: string) => void = console.log): Promise<GenerateResult> {
  if (!Number.isInteger(gigCount) || gigCount < 1000) throw new Error("--gigs must be an integer of at least 1000");
  const started = performance.now();
  let handle = await openMigrated(target);
  try {
    let state = await benchState(handle.db);
    const version = markerVersion(state?.comment);
    if (version !== null && state?.comment !== marker(gigCount)) {
      // Made by another version of this generator: its data may lack what this one writes.
      log(`generate: the database was made by generator v${version}, this is v${GENERATOR_VERSION}: making it afresh`);
      await handle.close();
      await wipe(target);
      handle = await openMigrated(target);
      state = await benchState(handle.db);
    }
    const db = handle.db;
    if (state?.comment === marker(gigCount)) {
      log(`generate: ${gigCount} gigs already loaded, verifying`);
      await verifyGenerated(db, gigCount, log);
      return { gigs: gigCount, skipped: true, seconds: 0, counts: await counts(db) };
    }
    if ((state?.users ?? 0) > 0) {
      throw new Error("generate: the database already holds users that this generator did not complete; use a fresh database");
    }
    await load(db, gigCount, handle.kind, log);
    await verifyGenerated(db, gigCount, log);
    const [{ name } = { name: "" }] = await queryRows<{ name: string }>(db, sql`select current_database() as name`);
    await db.execute(sql.raw(`comment on database "${name}" is '${marker(gigCount)}'`));
    const seconds = (performance.now() - started) / 1000;
    log(`generate: ${gigCount} gigs loaded in ${seconds.toFixed(1)} s`);
    return { gigs: gigCount, skipped: false, seconds, counts: await counts(db) };
  } finally {
    await handle.close();
  }
}

async function openMigrated(target: Target): Promise<DatabaseHandle> {
  const dbTarget: DatabaseTarget =
    target.kind === "postgres" ? { kind: "postgres", url: target.location, poolSize: 2 } : { kind: "pglite", dataDir: target.location };
  const handle = await openDatabase(dbTarget);
  await handle.migrate();
  await seedCategories(handle.db);
  return handle;
}

async function benchState(db: Database) {
  const [state] = await queryRows<{ comment: string | null; users: number }>(
    db,
    sql`select shobj_description(d.oid, 'pg_database') as comment, (select count(*)::int from users) as users
        from pg_database d where d.datname = current_database()`,
  );
  return state;
}

/** Drops and creates a bench database again (PostgreSQL), or removes its directory (PGlite). */
async function wipe(target: Target) {
  if (target.kind === "pglite") {
    rmSync(target.location, { recursive: true, force: true });
    return;
  }
  const url = new URL(target.location);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`drop database "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

async function counts(db: Database): Promise<Record<string, number>> {
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*)::int from gigs) as gigs,
               (select count(*)::int from gigs where status = 'open') as open_gigs,
               (select count(*)::int from users) as users,
               (select count(*)::int from digger_profiles) as diggers,
               (select count(*)::int from digger_categories) as digger_categories,
               (select count(*)::int from digger_references) as digger_references,
               (select count(*)::int from lead_purchases) as lead_purchases,
               (select count(*)::int from hires) as hires,
               (select count(*)::int from reviews) as reviews,
               (select count(*)::int from threads) as threads`,
  );
  return row ?? {};
}

/** The gig of row i is closed: 10% of the newest, 70% of the oldest. */
const closedGig = (i: string, n: number) => `${h(i, 14, 100)} < 10 + (60 * ${i}::bigint) / ${n}`;
/**
 * The signed-in pages' accounts (lib/signed-in.ts): the client bench-c-1 owns exactly 50 gigs
 * (one in every n/50 rows) and the digger bench-d-1 (digger row 1) bought exactly 50 leads (the
 * first purchase of one other gig in every n/50, which always has one); nobody else gets
 * either. Both can sign in with BENCH_PASSWORD.
 */
export const HEAVY_CLIENT = "bench-c-1";
export const HEAVY_DIGGER = "bench-d-1";
export const HEAVY_ROWS = 50;
export const BENCH_PASSWORD = "bench-password-123";
const stride = (n: number) => Math.floor(n / HEAVY_ROWS);
const heavyClientGig = (i: string, n: number) => `(${i} % ${stride(n)} = 0 and ${i} <= ${stride(n) * HEAVY_ROWS})`;
const heavyDiggerGig = (i: string, n: number) => `(${i} % ${stride(n)} = ${Math.floor(stride(n) / 2)} and ${i} < ${stride(n) * HEAVY_ROWS})`;
/** Completed purchases of the gig of row i: three gigs in ten have 1 to 3, the heavy digger's at least 1. */
const purchasesOf = (i: string, n: number) =>
  `(case when ${h(i, 20, 10)} < 3 or ${heavyDiggerGig(i, n)} then 1 + ${h(i, 21, 3)} else 0 end)`;
/** Every completed purchase as (i, k): the gig's row and the purchase's number on it. */
const purchaseRows = (n: number) => `generate_series(1, ${n}) i cross join lateral generate_series(1, ${purchasesOf("i", n)}) k`;
/** The purchase's own row number, for its hashes. */
const purchaseKey = "(i::bigint * 4 + k)";

async function load(db: Database, n: number, kind: "postgres" | "pglite", log: (line: string) => void) {
  const clients = Math.max(1, Math.floor(n / 4));
  const diggers = Math.max(10, Math.floor(n / 5));
  const spacingSeconds = (2 * 365 * 86400) / n; // two years of gigs, newest first
  const step = async (label: string, statement: string, executor: Database | Transaction = db) => {
    const t = performance.now();
    await executor.execute(sql.raw(statement));
    log(`  ${label} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  };

  const budgetKind = (i: string) => h(i, 2, 10);
  const budgetMin = (i: string) => `(case
      when ${budgetKind(i)} < 2 then null
      when ${budgetKind(i)} < 5 then 10000 + ${h(i, 4, 9)} * 10000
      when ${budgetKind(i)} < 8 then 100000 + ${h(i, 4, 21)} * 10000
      when ${budgetKind(i)} < 9 then 500000 + ${h(i, 4, 16)} * 100000
      else 20000 + ${h(i, 4, 79)} * 10000 end)`;
  const gigCreated = (i: string) => `(now() - make_interval(secs => ${i} * ${spacingSeconds}::float8))`;
  // Digger row 1 (the heavy digger) buys only the first lead of its gigs; the others, rows 2 on.
  const purchaseDigger = `md5('bench-digger-' || (case when k = 1 and ${heavyDiggerGig("i", n)} then 1
      else 2 + (${h("i", 22, diggers - 1)} + (k - 1) * ${Math.floor(diggers / 3) + 1}) % ${diggers - 1} end))::uuid`;
  const purchased = `least(now(), ${gigCreated("i")} + make_interval(hours => k))`;
  // Six purchases in ten end in a hire; eight hirers in ten and one non-hirer in ten review.
  const hired = `${h(purchaseKey, 70, 10)} < 6`;
  const reviewed = `(case when ${hired} then ${h(purchaseKey, 71, 10)} < 8 else ${h(purchaseKey, 71, 10)} < 1 end)`;
  const rating = `(case when ${h(purchaseKey, 72, 100)} < 45 then 5 when ${h(purchaseKey, 72, 100)} < 75 then 4
                        when ${h(purchaseKey, 72, 100)} < 87 then 3 when ${h(purchaseKey, 72, 100)} < 94 then 2 else 1 end)`;

  await db.transaction(async (tx) => {
    const txStep = (label: string, statement: string) => step(label, statement, tx);
    // Bulk load: no triggers (foreign keys and the derived columns: the rows are built
    // consistent, and verifyGenerated checks them), and the secondary indexes built once at
    // the end rather than row by row.
    await tx.execute(sql.raw(`set local session_replication_role = replica`));
    await tx.execute(sql.raw(`set local maintenance_work_mem = '${kind === "postgres" ? "512MB" : "128MB"}'`));
    const indexes = await queryRows<{ name: string; definition: string }>(
      tx,
      sql`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
          from pg_index i
          where i.indrelid in ('gigs'::regclass, 'digger_profiles'::regclass, 'lead_purchases'::regclass,
                               'digger_categories'::regclass, 'digger_references'::regclass, 'users'::regclass,
                               'hires'::regclass, 'reviews'::regclass, 'threads'::regclass)
            and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    );
    for (const index of indexes) await tx.execute(sql.raw(`drop index ${index.name}`));

    // One statement an execute: PGlite prepares each, and a prepared statement holds one.
    await tx.execute(sql.raw(`
      create temp table bench_top on commit drop as
        select row_number() over (order by slug)::int as n, id, name from categories where parent_category_id is null`));
    await tx.execute(sql.raw(`
      create temp table bench_sub on commit drop as
        select row_number() over (order by slug)::int as n,
               row_number() over (partition by parent_category_id order by slug)::int as k,
               count(*) over (partition by parent_category_id)::int as siblings,
               id, parent_category_id as parent, name
        from categories where parent_category_id is not null`));
    const [{ tops, subs } = { tops: 0, subs: 0 }] = await queryRows<{ tops: number; subs: number }>(
      tx,
      sql`select (select count(*)::int from bench_top) as tops, (select count(*)::int from bench_sub) as subs`,
    );

    // Every account has confirmed its e-mail, so every gig is published (below).
    await txStep(
      `${clients + diggers} users`,
      `insert into users (id, full_name, email, email_verified, user_type, created_at, updated_at)
       select 'bench-' || kind || '-' || j,
              ${pick("j", 30, FIRST)} || ' ' || ${pick("j", 31, LAST)},
              kind || j || '@bench.example', true, case kind when 'c' then 'consumer' else 'digger' end,
              now() - make_interval(days => ${h("j", 32, 900)}), now()
       from (select 'c' as kind, generate_series(1, ${clients}) as j
             union all select 'd', generate_series(1, ${diggers})) u`,
    );

    // What the triggers would have set: published mirrors the client's confirmed e-mail
    // (gigs_published_on_insert), visible_since is when the gig became open and published,
    // that is when it was posted (gigs_visible_since; a gig closed later keeps it), and
    // owner_suspended mirrors the client's suspension (users_sync_suspension).
    await txStep(
      `${n} gigs`,
      `insert into gigs (id, consumer_id, title, description, location, timeline, budget_min_cents, budget_max_cents,
                         category_id, deadline, status, purchase_count, published, visible_since, owner_suspended,
                         created_at, updated_at)
       select md5('bench-gig-' || g.i)::uuid, u.id,
              ${pick("g.i", 5, OPENERS)} || ' ' || lower(s.name) || ' for a ' || g.place,
              'We are looking for help with ' || lower(s.name) || ' at our ' || g.place || ' in ' || g.city || '. '
                || ${pick("g.i", 6, SENTENCES)} || ' ' || ${pick("g.i", 7, SENTENCES)}
                || case when ${h("g.i", 8, 2)} = 0 then ' ' || ${pick("g.i", 9, SENTENCES)} else '' end,
              g.city, ${pick("g.i", 10, TIMELINES)},
              g.budget_min,
              case when ${budgetKind("g.i")} = 9 or g.budget_min is null then null
                   when ${budgetKind("g.i")} < 5 then least(100000, g.budget_min + ${h("g.i", 11, 10)} * 5000)
                   when ${budgetKind("g.i")} < 8 then least(500000, g.budget_min + ${h("g.i", 11, 20)} * 10000)
                   else g.budget_min * 2 end,
              s.id,
              case when ${h("g.i", 12, 4)} = 0 then (g.created_at + make_interval(days => 14 + ${h("g.i", 13, 60)}))::date end,
              case when ${closedGig("g.i", n)} then 'closed' else 'open' end,
              ${purchasesOf("g.i", n)},
              u.email_verified, case when u.email_verified then g.created_at end, u.suspended_at is not null,
              g.created_at, g.created_at
       from (select i, ${budgetMin("i")} as budget_min,
                    ${pick("i", 15, PLACES)} as place, ${pick("i", 16, CITIES)} as city,
                    ${gigCreated("i")} as created_at,
                    1 + ${h("i", 17, subs)} as sub
             from generate_series(1, ${n}) i) g
       join bench_sub s on s.n = g.sub
       join users u on u.id = case when ${heavyClientGig("g.i", n)} then '${HEAVY_CLIENT}'
                                   else 'bench-c-' || (2 + ${h("g.i", 3, clients - 1)}) end`,
    );

    await txStep(
      "completed lead purchases",
      `insert into lead_purchases (id, gig_id, digger_id, amount_paid_cents, status, provider, provider_session_id,
                                   created_at, purchased_at)
       select md5('bench-purchase-' || i || '-' || k)::uuid, md5('bench-gig-' || i)::uuid, ${purchaseDigger},
              greatest(5000, round(coalesce(${budgetMin("i")}, 0) * 0.005))::int, 'completed', 'test',
              'bench_' || i || '_' || k, ${purchased}, ${purchased}
       from ${purchaseRows(n)}`,
    );

    await txStep(
      "hires",
      `insert into hires (gig_id, digger_id, created_at)
       select md5('bench-gig-' || i)::uuid, ${purchaseDigger},
              least(now(), ${purchased} + make_interval(days => 1 + ${h(purchaseKey, 73, 10)}))
       from ${purchaseRows(n)}
       where ${hired}`,
    );

    await txStep(
      "reviews",
      `insert into reviews (id, gig_id, digger_id, lead_purchase_id, rating, body, created_at, updated_at)
       select md5('bench-review-' || i || '-' || k)::uuid, md5('bench-gig-' || i)::uuid, ${purchaseDigger},
              md5('bench-purchase-' || i || '-' || k)::uuid, ${rating},
              ${pick(purchaseKey, 74, REVIEWS)} || ' ' || ${pick(purchaseKey, 75, REVIEWS)},
              least(now(), ${purchased} + make_interval(days => 3 + ${h(purchaseKey, 76, 30)})),
              least(now(), ${purchased} + make_interval(days => 3 + ${h(purchaseKey, 76, 30)}))
       from ${purchaseRows(n)}
       where ${reviewed}`,
    );

    // The figures refresh_digger_figures (migrations 0016, 0023) keeps: average and count of the
    // visible reviews, and the share of completed purchases that ended in a hire. Response
    // time is not measured by the app, so it is unknown (null), as the migration left it.
    await txStep(
      `${diggers} digger profiles`,
      `insert into digger_profiles (id, user_id, handle, business_name, phone, location, profession, bio,
             hourly_rate_min_cents, hourly_rate_max_cents, years_experience, availability, average_rating, total_ratings,
             verified, is_insured, is_bonded, completion_rate, response_time_hours, created_at, updated_at)
       select d.id, 'bench-d-' || d.j,
              lower(${pick("d.j", 30, FIRST)}) || '_' || d.j,
              ${pick("d.j", 31, LAST)} || ' ' || s.name || ' Co.',
              '+1 555 ' || lpad((d.j % 10000000)::text, 7, '0'),
              ${pick("d.j", 40, CITIES)},
              ${pick("d.j", 41, TITLES)} || ' ' || lower(s.name) || ' specialist',
              ${pick("d.j", 42, BIO)} || ' ' || ${pick("d.j", 43, BIO)} || ' Most of my work is ' || lower(s.name) || '.',
              d.rate, case when d.rate is not null then d.rate + ${h("d.j", 44, 40)} * 250 end,
              case when ${h("d.j", 45, 10)} > 0 then ${h("d.j", 46, 41)} end,
              ${pick("d.j", 47, ["Weekdays", "Evenings and weekends", "Full time", "By appointment"])},
              coalesce(r.average, 0), coalesce(r.total, 0),
              ${h("d.j", 51, 3)} = 0, ${h("d.j", 52, 2)} = 0, ${h("d.j", 53, 4)} = 0,
              coalesce(c.rate, 0), null,
              now() - make_interval(days => ${h("d.j", 56, 900)}), now()
       from (select j, md5('bench-digger-' || j)::uuid as id, 1 + ${h("j", 57, tops)} as top,
                    case when ${h("j", 58, 10)} > 0 then 2000 + ${h("j", 59, 53)} * 250 end as rate
             from generate_series(1, ${diggers}) j) d
       join bench_top t on t.n = d.top
       join bench_sub s on s.parent = t.id and s.k = 1 + ${h("d.j", 60, "s.siblings")}
       left join (select digger_id, round(avg(rating), 2) as average, count(*)::int as total
                  from reviews where hidden_at is null group by digger_id) r on r.digger_id = d.id
       left join (select p.digger_id, round(100.0 * count(x.gig_id) / nullif(count(*), 0))::int as rate
                  from lead_purchases p left join hires x on x.gig_id = p.gig_id and x.digger_id = p.digger_id
                  where p.status = 'completed' group by p.digger_id) c on c.digger_id = d.id`,
    );

    await txStep(
      "digger categories",
      `insert into digger_categories (digger_id, category_id)
       select distinct md5('bench-digger-' || d.j)::uuid, c.id
       from (select j, 1 + ${h("j", 57, tops)} as top from generate_series(1, ${diggers}) j) d
       join bench_top t on t.n = d.top
       cross join lateral (
         select t.id union all
         select s.id from bench_sub s
         where s.parent = t.id and (s.k = 1 + ${h("d.j", 60, "s.siblings")} or s.k = 1 + ${h("d.j", 61, "s.siblings")})
       ) c(id)`,
    );

    await txStep(
      "digger references",
      `insert into digger_references (digger_id, reference_name, reference_email, reference_phone, project_description, is_verified)
       select md5('bench-digger-' || j)::uuid,
              ${pick("j * 4 + r", 62, FIRST)} || ' ' || ${pick("j * 4 + r", 63, LAST)},
              'ref' || j || '_' || r || '@bench.example', '+1 555 0100',
              'Worked together on a ' || ${pick("j * 4 + r", 64, PLACES)} || ' project.', ${h("j * 4 + r", 65, 2)} = 0
       from generate_series(1, ${diggers}) j
       cross join lateral generate_series(1, ${h("j", 66, 4)}) r`,
    );

    // What purchase_thread (migration 0029) makes in the transaction that completes a purchase:
    // one thread per completed purchase, between the buyer and the gig's client, no message yet.
    await txStep(
      "a thread per completed purchase",
      `insert into threads (purchase_id, digger_user_id, client_id, last_activity_at, created_at)
       select p.id, d.user_id, g.consumer_id, p.purchased_at, p.purchased_at
       from lead_purchases p join digger_profiles d on d.id = p.digger_id join gigs g on g.id = p.gig_id
       where p.status = 'completed'`,
    );

    // The client's record (migration 0052, issue 48), as its triggers keep it, so that the gig
    // page and Browse Gigs really read one: per client and month of purchase, the leads whose
    // digger wrote (8 in 10), the client's replies (8 in 10 of those) by the delay's band (a
    // hash of the purchase: 4 within an hour, 2 within 6 hours, 1 within a day, 1 later); and per
    // client, the leads all time, the gigs somebody bought and of those the hired ones, by
    // gigs.hired as the trigger counts them (this load leaves gigs.hired false, as before issue
    // 48: 'Hired on 0 of n gigs'). The threads' own evidence columns stay as a thread with no
    // message: the record is what is read.
    const draw = (salt: string) => `((hashtext(t.purchase_id::text || '${salt}') & 2147483647) % 10)`;
    await txStep(
      "the clients' reply months",
      `insert into client_reply_months (client_id, month, leads, replied, within_hour, within_few_hours, within_day)
       select t.client_id, date_trunc('month', t.created_at at time zone 'UTC')::date, count(*)::int,
              count(*) filter (where ${draw("/reply")} < 8)::int, count(*) filter (where ${draw("/reply")} < 4)::int,
              count(*) filter (where ${draw("/reply")} between 4 and 5)::int, count(*) filter (where ${draw("/reply")} = 6)::int
       from threads t
       where ${draw("/wrote")} < 8
       group by 1, 2`,
    );
    await txStep(
      "the clients' records",
      `insert into client_records (client_id, leads, gigs_bought, gigs_hired)
       select g.consumer_id, coalesce(max(m.leads), 0), count(*)::int, count(*) filter (where g.hired)::int
       from gigs g
       left join (select client_id, sum(leads)::int as leads from client_reply_months group by client_id) m on m.client_id = g.consumer_id
       where g.purchase_count > 0
       group by g.consumer_id`,
    );

    // The heavy client's and digger's passwords, as Better Auth's e-mail sign-in stores them.
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    await tx.execute(sql`insert into accounts (id, account_id, provider_id, user_id, password)
                         select 'bench-account-' || id, id, 'credential', id, ${passwordHash}
                         from users where id in (${HEAVY_CLIENT}, ${HEAVY_DIGGER})`);

    for (const index of indexes) await txStep(`index ${index.name}`, index.definition);
  });
  // Outside the transaction: statistics for the planner and the visibility map for
  // index-only scans, as a database in steady state would have.
  await step("vacuum analyze", "vacuum analyze");
}

/** Thrown inside the check's transaction to roll back what the triggers' function wrote. */
class RollBack extends Error {}

/**
 * Reads the generated world back and fails loudly when it is not what the app would have
 * written: Browse Gigs' own query lists every open gig and fills its first page, the
 * triggers' rules hold on every gig, purchase_count counts the completed purchases, and the
 * triggers' own function (refresh_digger_figures) gives a sample of diggers the figures the
 * load wrote.
 */
export async function verifyGenerated(db: Database, n: number, log: (line: string) => void = console.log): Promise<void> {
  const t = performance.now();
  const problems: string[] = [];
  const [listing] = await queryRows<{ listed: number; expected: number }>(
    db,
    sql`select (select count(*)::int from gigs where ${forSale()}) as listed,
               (select count(*)::int from generate_series(1, ${sql.raw(String(n))}) i where not (${sql.raw(closedGig("i", n))})) as expected`,
  );
  if (!listing || listing.listed !== listing.expected) {
    problems.push(`Browse Gigs lists ${listing?.listed} gigs, the generator made ${listing?.expected} open ones`);
  }
  const firstPage = await listOpenGigs(db, parseBrowseFilters(new URLSearchParams()));
  if (firstPage.items.length !== PAGE_SIZE || !firstPage.nextCursor) {
    problems.push(`Browse Gigs' first page lists ${firstPage.items.length} gigs (${PAGE_SIZE} and a next page expected)`);
  }
  const [rules] = await queryRows<Record<string, number>>(
    db,
    sql`select
          (select count(*)::int from gigs g join users u on u.id = g.consumer_id
             where g.published is distinct from u.email_verified) as "published is not the client's confirmed e-mail",
          (select count(*)::int from gigs g join users u on u.id = g.consumer_id
             where g.owner_suspended is distinct from (u.suspended_at is not null)) as "owner_suspended is not the client's suspension",
          (select count(*)::int from gigs where published and visible_since is null) as "published gigs without visible_since",
          (select count(*)::int from gigs g
             where g.purchase_count <> (select count(*) from lead_purchases p where p.gig_id = g.id and p.status = 'completed'))
            as "purchase_count is not the completed purchases",
          (select count(*)::int from lead_purchases p
             where p.status = 'completed' and not exists (
               select 1 from threads t join digger_profiles d on d.user_id = t.digger_user_id join gigs g on g.id = p.gig_id
               where t.purchase_id = p.id and d.id = p.digger_id and t.client_id = g.consumer_id))
            as "completed purchases without their thread",
          (select abs(count(*) - ${HEAVY_ROWS})::int from gigs where consumer_id = ${HEAVY_CLIENT}) as "gigs of the heavy client off 50",
          (select abs(count(*) - ${HEAVY_ROWS})::int from lead_purchases p join digger_profiles d on d.id = p.digger_id
             where d.user_id = ${HEAVY_DIGGER} and p.status = 'completed') as "leads of the heavy digger off 50",
          (select 2 - count(*)::int from accounts where user_id in (${HEAVY_CLIENT}, ${HEAVY_DIGGER}) and password is not null)
            as "heavy accounts without a password",
          (select count(*)::int from (select consumer_id, count(*) as bought from gigs where purchase_count > 0 group by consumer_id) b
             full join client_records r on r.client_id = b.consumer_id
             where r.gigs_bought is distinct from b.bought) as "client_records.gigs_bought is not the client's bought gigs",
          (select count(*)::int from client_records r
             where r.leads <> coalesce((select sum(m.leads) from client_reply_months m where m.client_id = r.client_id), 0))
            as "client_records.leads is not the sum of the reply months",
          (select case when exists (select 1 from client_records where leads >= 3) then 0 else 1 end) as "no client with 3 leads in the record"`,
  );
  for (const [rule, count] of Object.entries(rules ?? {})) if (count > 0) problems.push(`${count} rows: ${rule}`);

  // The triggers' function on a sample, in a transaction rolled back afterwards.
  const figures = sql`select id, average_rating::text as rating, total_ratings as total, completion_rate as rate
                      from digger_profiles where id in (select id from bench_sample) order by id`;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`create temp table bench_sample on commit drop as
                           select id from digger_profiles order by md5(id::text) limit 300`);
      const written = await queryRows<Record<string, unknown>>(tx, figures);
      await tx.execute(sql`select refresh_digger_figures(id) from bench_sample`);
      const recomputed = await queryRows<Record<string, unknown>>(tx, figures);
      const differ = written.filter((row, i) => JSON.stringify(row) !== JSON.stringify(recomputed[i]));
      if (written.length === 0 || differ.length > 0) {
        problems.push(
          `digger figures differ from refresh_digger_figures for ${differ.length} of ${written.length} sampled diggers` +
            (differ[0] ? `, e.g. written ${JSON.stringify(differ[0])}, recomputed ${JSON.stringify(recomputed[written.indexOf(differ[0])])}` : ""),
        );
      }
      const [reviewed] = await queryRows<{ count: number }>(tx, sql`select count(*)::int as count from digger_profiles where total_ratings > 0`);
      if (!reviewed?.count) problems.push("no digger has a review");
      throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }

  if (problems.length > 0) throw new Error(`generate: the generated data is not what the app would have written:\n  ${problems.join("\n  ")}`);
  log(`  verified: Browse Gigs lists ${listing?.listed} of ${n} gigs, derived columns consistent (${((performance.now() - t) / 1000).toFixed(1)} s)`);
}

function parseArgs(argv: string[]) {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return { gigs: Number(value("--gigs") ?? 100_000), pglite: value("--pglite") };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = parseArgs(process.argv.slice(2));
  const location = args.pglite
    ? args.pglite
    : (process.env.DATABASE_URL ?? (await benchDatabaseUrl(process.env.BENCH_PG_SERVER ?? DEFAULT_PG_SERVER, args.gigs)));
  const result = await generate({ kind: args.pglite ? "pglite" : "postgres", location }, args.gigs);
  console.log(JSON.stringify(result.counts));
}
