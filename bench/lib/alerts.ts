/**
 * The lead-alerts case (issue 21): on a fresh PostgreSQL database, 10,000 diggers whose alerts
 * match a category and 190,000 whose alerts do not (other categories, a sub-category, Off, a
 * keyword the gig lacks, a maximum price below it, deleted or suspended accounts; 40,000 of
 * them with saved alerts, the rest on their profile's categories), seeded in bulk SQL. The built server runs in production mode with SMTP to a local peer that only counts.
 * It measures the post request (the gig in the matched category against posts in a category
 * nobody watches, before and during the fan-out), the time until all 10,000 alert e-mails were
 * handed to SMTP, and the matching query's plan (EXPLAIN ANALYZE).
 */
import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { alertGig } from "../../server/alerts/fan-out.ts";
import { matchingDiggersQuery } from "../../server/alerts/matching.ts";
import { openDatabase, queryRows } from "../../server/db/client.ts";
import { seedCategories } from "../../server/db/seed/index.ts";
import { freshDatabase } from "./fresh-database.ts";
import { startServer } from "./server.ts";

export interface AlertsResult {
  diggers: { matching: number; notMatching: number };
  seedSeconds: number;
  /** Milliseconds of each POST /post-gig. */
  postMs: { baseline: number[]; matched: number; duringFanOut: number[] };
  /** The matched post over the baseline's median. */
  postRatio: number;
  /** From the matched post's answer until the SMTP peer had every alert e-mail. */
  deliverySeconds: number | null;
  delivered: number;
  /** Messages per second while the alerts arrived. */
  deliveryRate: number;
  /** SMTP connections the server opened to the peer (pooled since issue 35: a few, not one per e-mail). */
  smtpConnections: number;
  explain: string;
}

const DATABASE = "dg_bench_alerts";
const PASSWORD = "bench-password-123";
/** The case posts 19 gigs; an account posts at most 10 an hour (decision 0034), so 3 clients take turns. */
const CLIENTS = 3;
const MATCHING = 10_000;
const TOTAL = 200_000;
/** How long the case waits for the e-mails before giving up (the goal is 5 minutes). */
const DELIVERY_LIMIT_MS = 8 * 60_000;

/** An SMTP peer that accepts everything and counts messages and connections, parsing nothing (10,000 messages). */
async function countingSmtp() {
  const state = { count: 0, first: 0, last: 0, connections: 0 };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        state.count += 1;
        state.last = performance.now();
        state.first ||= state.last;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.on("error", () => {});
  const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return { state, url, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The diggers and the confirmed clients, in bulk; returns the watched and the unwatched category. */
async function seed(url: string) {
  const handle = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  try {
    const db = handle.db;
    await handle.migrate();
    await seedCategories(db);
    const tops = await queryRows<{ id: string; slug: string }>(db, sql`select id, slug from categories where parent_category_id is null order by slug`);
    const [watched, unwatched, ...others] = tops;
    const subs = await queryRows<{ id: string }>(db, sql`select id from categories where parent_category_id = ${watched!.id}::uuid`);
    const elsewhere = [...others.map((c) => c.id), ...subs.map((c) => c.id)];
    const elsewhereArray = `{${elsewhere.join(",")}}`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into users (id, full_name, email, email_verified, user_type, deleted_at, suspended_at, suspended_reason)
        select 'bench-digger-' || n, 'Bench Digger ' || n, 'bench-digger-' || n || '@example.com', true, 'digger',
               case when n between 15001 and 16000 then now() end, case when n between 16001 and 17000 then now() end,
               case when n between 16001 and 17000 then 'Bench suspension' end
        from generate_series(1, ${TOTAL}) n`);
      await tx.execute(sql`insert into digger_profiles (user_id, handle, business_name, phone, location, profession, bio)
        select 'bench-digger-' || n, 'bd_' || n, 'Bench Business ' || n, '(555) 010-0000', 'Austin, TX', 'Handyman', 'General repairs.'
        from generate_series(1, ${TOTAL}) n`);
      // Profile categories: the watched one for the defaults (1-5,000) and the deleted and
      // suspended (15,001-17,000); one of the others (incl. the watched one's sub-categories) for the rest.
      await tx.execute(sql`insert into digger_categories (digger_id, category_id)
        select p.id, case when n <= 5000 or n between 15001 and 17000 then ${watched!.id}::uuid
                          else (${elsewhereArray}::uuid[])[1 + n % ${elsewhere.length}] end
        from generate_series(1, ${TOTAL}) n join digger_profiles p on p.handle = 'bd_' || n`);
      // Saved alerts on the watched category: instant (5,001-10,000), Off (10,001-12,000), a
      // keyword no gig here has (12,001-14,000), a maximum below any lead price (14,001-15,000).
      await tx.execute(sql`insert into lead_alert_settings (digger_id, frequency, keywords, max_lead_price_cents)
        select p.id, case when n between 10001 and 12000 then 'off' else 'instant' end,
               case when n between 12001 and 14000 then array['swimming pool'] else '{}'::text[] end,
               case when n between 14001 and 15000 then 1000 end
        from generate_series(5001, 15000) n join digger_profiles p on p.handle = 'bd_' || n`);
      await tx.execute(sql`insert into lead_alert_categories (digger_id, category_id)
        select digger_id, ${watched!.id}::uuid from lead_alert_settings`);
      // And 30,000 saved alerts elsewhere (17,001-47,000): instant, on another category each.
      await tx.execute(sql`insert into lead_alert_settings (digger_id, frequency)
        select p.id, 'instant' from generate_series(17001, 47000) n join digger_profiles p on p.handle = 'bd_' || n`);
      await tx.execute(sql`insert into lead_alert_categories (digger_id, category_id)
        select p.id, (${elsewhereArray}::uuid[])[1 + n % ${elsewhere.length}]
        from generate_series(17001, 47000) n join digger_profiles p on p.handle = 'bd_' || n`);
      await tx.execute(sql`insert into users (id, full_name, email, email_verified, user_type)
        select 'bench-alerts-client-' || n, 'Bench Client ' || n, 'bench-client-' || n || '@example.com', true, 'consumer' from generate_series(1, ${CLIENTS}) n`);
      await tx.execute(sql`insert into accounts (id, account_id, provider_id, user_id, password)
        select 'bench-alerts-client-' || n, 'bench-alerts-client-' || n, 'credential', 'bench-alerts-client-' || n, ${await hashPassword(PASSWORD)} from generate_series(1, ${CLIENTS}) n`);
    });
    await db.execute(sql`analyze`);
    // The plan of the matching query, for a gig in the watched category (not posted: no alerts sent).
    const [gig] = await queryRows<{ id: string }>(
      db,
      sql`insert into gigs (consumer_id, title, description, location, timeline, category_id, budget_min_cents, budget_max_cents)
          values ('bench-alerts-client-1', 'Explain this cedar deck', 'A cedar deck of twelve by sixteen feet, with two steps down to the lawn and a railing.', 'Austin, TX', 'Within a month', ${watched!.id}::uuid, 500000, 900000)
          returning id`,
    );
    const terms = (await alertGig(db, gig!.id))!;
    const plan = await queryRows<{ "QUERY PLAN": string }>(db, sql`explain (analyze, buffers) ${matchingDiggersQuery(terms, "instant")}`);
    await db.execute(sql`update gigs set status = 'closed' where id = ${gig!.id}::uuid`);
    return { watched: watched!.id, unwatched: unwatched!.id, explain: plan.map((row) => row["QUERY PLAN"]).join("\n") };
  } finally {
    await handle.close();
  }
}

export async function alertsCase({ pgServer, buildDir, log }: { pgServer: string; buildDir: string; log: (line: string) => void }): Promise<AlertsResult> {
  const url = await freshDatabase(pgServer, DATABASE);
  let started = performance.now();
  const { watched, unwatched, explain } = await seed(url);
  const seedSeconds = (performance.now() - started) / 1000;
  log(`  seeded ${TOTAL} diggers (${MATCHING} matching) in ${seedSeconds.toFixed(1)} s`);

  const smtp = await countingSmtp();
  const server = await startServer({ kind: "postgres", url }, buildDir, { MAIL_TRANSPORT: "smtp", SMTP_URL: smtp.url });
  try {
    const cookies: string[] = [];
    for (let i = 1; i <= CLIENTS; i++) {
      const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: `bench-client-${i}@example.com`, password: PASSWORD }),
      });
      if (!signIn.ok) throw new Error(`bench client sign-in answered ${signIn.status}`);
      cookies.push(
        signIn.headers
          .getSetCookie()
          .map((c) => c.split(";")[0]!)
          .join("; "),
      );
    }
    let n = 0;
    const post = async (categoryId: string) => {
      n += 1;
      const cookie = cookies[n % CLIENTS]!;
      const body = new URLSearchParams({
        acceptTerms: "on",
        title: `Build a cedar deck number ${n}`,
        description: "A cedar deck of twelve by sixteen feet off the back door, with two steps down to the lawn.",
        location: "Austin, TX",
        timeline: "Within a month",
        budgetMin: "5000",
        budgetMax: "9000",
        categoryId,
        maxDiggers: "3",
      });
      const t = performance.now();
      const response = await fetch(`${server.url}/post-gig`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie },
        body,
        redirect: "manual",
      });
      await response.arrayBuffer();
      if (response.status !== 302) throw new Error(`POST /post-gig answered ${response.status}`);
      return Math.round((performance.now() - t) * 10) / 10;
    };
    for (let i = 0; i < 3; i++) await post(unwatched); // warm-up
    const baseline: number[] = [];
    for (let i = 0; i < 10; i++) baseline.push(await post(unwatched));
    const matched = await post(watched);
    started = performance.now();
    const duringFanOut: number[] = [];
    for (let i = 0; i < 5; i++) duringFanOut.push(await post(unwatched));
    log(`  post: baseline median ${median(baseline)} ms, matched ${matched} ms, during the fan-out median ${median(duringFanOut)} ms`);

    let lastLog = performance.now();
    while (smtp.state.count < MATCHING && performance.now() - started < DELIVERY_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (performance.now() - lastLog > 15_000) {
        lastLog = performance.now();
        log(`  ${smtp.state.count} alert e-mails at SMTP after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    }
    const done = smtp.state.count >= MATCHING;
    const deliverySeconds = done ? Math.round((smtp.state.last - started) / 100) / 10 : null;
    const rate = smtp.state.count > 1 ? Math.round((smtp.state.count - 1) / ((smtp.state.last - smtp.state.first) / 1000)) : 0;
    log(`  ${smtp.state.count} alert e-mails handed to SMTP${done ? ` in ${deliverySeconds} s` : " (gave up)"}, ${rate}/s, over ${smtp.state.connections} SMTP connections`);
    // Nothing more arrives: exactly one per matching digger.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return {
      diggers: { matching: MATCHING, notMatching: TOTAL - MATCHING },
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      postMs: { baseline, matched, duringFanOut },
      postRatio: Math.round((matched / median(baseline)) * 100) / 100,
      deliverySeconds,
      delivered: smtp.state.count,
      deliveryRate: rate,
      smtpConnections: smtp.state.connections,
      explain,
    };
  } finally {
    await server.stop();
    await smtp.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
