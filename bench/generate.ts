/**
 * Fills a database with N gigs, N/4 consumers, N/5 diggers (categories, references) and
 * completed lead purchases, in a few INSERT ... SELECT statements over generate_series.
 *
 * Every "random" choice is a hash of the row number (hashint8), so a given N always yields
 * the same data. The database is marked complete (a comment on the database) only when the
 * load has committed: a second run with the same N does nothing, and a run into a database
 * that holds anything else is refused.
 *
 *   tsx bench/generate.ts --gigs 100000                       # creates dg_bench_100000 on BENCH_PG_SERVER
 *   DATABASE_URL=postgres://.../mydb tsx bench/generate.ts     # an existing, empty database
 *   tsx bench/generate.ts --pglite /tmp/dir --gigs 10000      # embedded PGlite
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, queryRows, type Database, type DatabaseTarget, type Transaction } from "../server/db/client.ts";
import { seedCategories } from "../server/db/seed/index.ts";

export const GENERATOR_VERSION = 1;
export const DEFAULT_PG_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

export interface Target {
  kind: "postgres" | "pglite";
  /** PostgreSQL: the database URL; PGlite: the data directory. */
  location: string;
}

const marker = (gigs: number) => `digs-and-gigs bench v${GENERATOR_VERSION}: ${gigs} gigs, complete`;

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

/** The database URL for `dg_bench_<n>` on a server, created when missing. */
export async function benchDatabaseUrl(serverUrl: string, gigs: number): Promise<string> {
  const name = `dg_bench_${gigs}`;
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
  const dbTarget: DatabaseTarget =
    target.kind === "postgres" ? { kind: "postgres", url: target.location, poolSize: 2 } : { kind: "pglite", dataDir: target.location };
  const handle = await openDatabase(dbTarget);
  try {
    const db = handle.db;
    await handle.migrate();
    await seedCategories(db);
    const [state] = await queryRows<{ comment: string | null; users: number }>(
      db,
      sql`select shobj_description(d.oid, 'pg_database') as comment, (select count(*)::int from users) as users
          from pg_database d where d.datname = current_database()`,
    );
    if (state?.comment === marker(gigCount)) {
      log(`generate: ${gigCount} gigs already loaded, nothing to do`);
      return { gigs: gigCount, skipped: true, seconds: 0, counts: await counts(db) };
    }
    if ((state?.users ?? 0) > 0) {
      throw new Error("generate: the database already holds users that this generator did not complete; use a fresh database");
    }
    await load(db, gigCount, handle.kind, log);
    const [{ name } = { name: "" }] = await queryRows<{ name: string }>(db, sql`select current_database() as name`);
    await db.execute(sql.raw(`comment on database "${name}" is '${marker(gigCount)}'`));
    const seconds = (performance.now() - started) / 1000;
    log(`generate: ${gigCount} gigs loaded in ${seconds.toFixed(1)} s`);
    return { gigs: gigCount, skipped: false, seconds, counts: await counts(db) };
  } finally {
    await handle.close();
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
               (select count(*)::int from lead_purchases) as lead_purchases`,
  );
  return row ?? {};
}

async function load(db: Database, n: number, kind: "postgres" | "pglite", log: (line: string) => void) {
  const consumers = Math.max(1, Math.floor(n / 4));
  const diggers = Math.max(10, Math.floor(n / 5));
  const spacingSeconds = (2 * 365 * 86400) / n; // two years of gigs, newest first
  const step = async (label: string, statement: string, executor: Database | Transaction = db) => {
    const t = performance.now();
    await executor.execute(sql.raw(statement));
    log(`  ${label} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  };

  // Purchases per gig, used both for gigs.purchase_count and for the purchases themselves.
  const purchasesOf = (i: string) => `(case when ${h(i, 20, 10)} < 3 then 1 + ${h(i, 21, 3)} else 0 end)`;
  const budgetKind = (i: string) => h(i, 2, 10);
  const budgetMin = (i: string) => `(case
      when ${budgetKind(i)} < 2 then null
      when ${budgetKind(i)} < 5 then 10000 + ${h(i, 4, 9)} * 10000
      when ${budgetKind(i)} < 8 then 100000 + ${h(i, 4, 21)} * 10000
      when ${budgetKind(i)} < 9 then 500000 + ${h(i, 4, 16)} * 100000
      else 20000 + ${h(i, 4, 79)} * 10000 end)`;

  await db.transaction(async (tx) => {
    const txStep = (label: string, statement: string) => step(label, statement, tx);
    // Bulk load: no foreign-key triggers (the rows are built consistent), and the secondary
    // indexes built once at the end rather than row by row.
    await tx.execute(sql.raw(`set local session_replication_role = replica`));
    await tx.execute(sql.raw(`set local maintenance_work_mem = '${kind === "postgres" ? "512MB" : "128MB"}'`));
    const indexes = await queryRows<{ name: string; definition: string }>(
      tx,
      sql`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
          from pg_index i
          where i.indrelid in ('gigs'::regclass, 'digger_profiles'::regclass, 'lead_purchases'::regclass,
                               'digger_categories'::regclass, 'digger_references'::regclass, 'users'::regclass)
            and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    );
    for (const index of indexes) await tx.execute(sql.raw(`drop index ${index.name}`));

    await tx.execute(sql.raw(`
      create temp table bench_top on commit drop as
        select row_number() over (order by slug)::int as n, id, name from categories where parent_category_id is null;
      create temp table bench_sub on commit drop as
        select row_number() over (order by slug)::int as n,
               row_number() over (partition by parent_category_id order by slug)::int as k,
               count(*) over (partition by parent_category_id)::int as siblings,
               id, parent_category_id as parent, name
        from categories where parent_category_id is not null;`));
    const [{ tops, subs } = { tops: 0, subs: 0 }] = await queryRows<{ tops: number; subs: number }>(
      tx,
      sql`select (select count(*)::int from bench_top) as tops, (select count(*)::int from bench_sub) as subs`,
    );

    await txStep(
      `${consumers + diggers} users`,
      `insert into users (id, full_name, email, email_verified, user_type, created_at, updated_at)
       select 'bench-' || kind || '-' || j,
              ${pick("j", 30, FIRST)} || ' ' || ${pick("j", 31, LAST)},
              kind || j || '@bench.example', true, case kind when 'c' then 'consumer' else 'digger' end,
              now() - make_interval(days => ${h("j", 32, 900)}), now()
       from (select 'c' as kind, generate_series(1, ${consumers}) as j
             union all select 'd', generate_series(1, ${diggers})) u`,
    );

    await txStep(
      `${n} gigs`,
      `insert into gigs (id, consumer_id, title, description, location, timeline, budget_min_cents, budget_max_cents,
                         category_id, deadline, status, purchase_count, created_at, updated_at)
       select md5('bench-gig-' || g.i)::uuid, 'bench-c-' || (1 + ${h("g.i", 3, consumers)}),
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
              case when ${h("g.i", 14, 100)} < 10 + (60 * g.i) / ${n} then 'closed' else 'open' end,
              ${purchasesOf("g.i")}, g.created_at, g.created_at
       from (select i, ${budgetMin("i")} as budget_min,
                    ${pick("i", 15, PLACES)} as place, ${pick("i", 16, CITIES)} as city,
                    now() - make_interval(secs => i * ${spacingSeconds}::float8) as created_at,
                    1 + ${h("i", 17, subs)} as sub
             from generate_series(1, ${n}) i) g
       join bench_sub s on s.n = g.sub`,
    );

    await txStep(
      `${diggers} digger profiles`,
      `insert into digger_profiles (id, user_id, handle, business_name, phone, location, profession, bio,
             hourly_rate_min_cents, hourly_rate_max_cents, years_experience, availability, average_rating, total_ratings,
             verified, is_insured, is_bonded, completion_rate, response_time_hours, created_at, updated_at)
       select md5('bench-digger-' || d.j)::uuid, 'bench-d-' || d.j,
              lower(${pick("d.j", 30, FIRST)}) || '_' || d.j,
              ${pick("d.j", 31, LAST)} || ' ' || s.name || ' Co.',
              '+1 555 ' || lpad((d.j % 10000000)::text, 7, '0'),
              ${pick("d.j", 40, CITIES)},
              ${pick("d.j", 41, TITLES)} || ' ' || lower(s.name) || ' specialist',
              ${pick("d.j", 42, BIO)} || ' ' || ${pick("d.j", 43, BIO)} || ' Most of my work is ' || lower(s.name) || '.',
              d.rate, case when d.rate is not null then d.rate + ${h("d.j", 44, 40)} * 250 end,
              case when ${h("d.j", 45, 10)} > 0 then ${h("d.j", 46, 41)} end,
              ${pick("d.j", 47, ["Weekdays", "Evenings and weekends", "Full time", "By appointment"])},
              round((${h("d.j", 48, 301)} + 200) / 100.0, 2) * (case when ${h("d.j", 49, 8)} = 0 then 0 else 1 end),
              case when ${h("d.j", 49, 8)} = 0 then 0 else 1 + ${h("d.j", 50, 250)} end,
              ${h("d.j", 51, 3)} = 0, ${h("d.j", 52, 2)} = 0, ${h("d.j", 53, 4)} = 0,
              50 + ${h("d.j", 54, 51)}, 1 + ${h("d.j", 55, 48)},
              now() - make_interval(days => ${h("d.j", 56, 900)}), now()
       from (select j, 1 + ${h("j", 57, tops)} as top,
                    case when ${h("j", 58, 10)} > 0 then 2000 + ${h("j", 59, 53)} * 250 end as rate
             from generate_series(1, ${diggers}) j) d
       join bench_top t on t.n = d.top
       join bench_sub s on s.parent = t.id and s.k = 1 + ${h("d.j", 60, "s.siblings")}`,
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

    await txStep(
      "completed lead purchases",
      `insert into lead_purchases (gig_id, digger_id, amount_paid_cents, status, provider, provider_session_id,
                                   created_at, purchased_at)
       select md5('bench-gig-' || i)::uuid,
              md5('bench-digger-' || (1 + (${h("i", 22, diggers)} + (k - 1) * ${Math.floor(diggers / 3) + 1}) % ${diggers}))::uuid,
              greatest(5000, round(coalesce(${budgetMin("i")}, 0) * 0.005))::int, 'completed', 'test',
              'bench_' || i || '_' || k,
              now() - make_interval(secs => i * ${spacingSeconds}::float8) + make_interval(hours => k),
              now() - make_interval(secs => i * ${spacingSeconds}::float8) + make_interval(hours => k)
       from generate_series(1, ${n}) i
       cross join lateral generate_series(1, ${purchasesOf("i")}) k`,
    );

    for (const index of indexes) await txStep(`index ${index.name}`, index.definition);
  });
  // Outside the transaction: statistics for the planner and the visibility map for
  // index-only scans, as a database in steady state would have.
  await step("vacuum analyze", "vacuum analyze");
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
