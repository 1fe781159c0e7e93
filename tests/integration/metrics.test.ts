/**
 * Prometheus metrics at `/metrics` (docs/decisions/0016-health-and-metrics.md): latency by
 * route pattern, the database pool, a job queue's figures; open in local mode, behind
 * METRICS_TOKEN in production.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../server/db/client.ts";
import { emails } from "../../server/db/schema.ts";
import { createMetrics, type JobQueueSource } from "../../server/metrics.ts";
import { changeUser, signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { SessionClient } from "../support/session-client.ts";

/** The samples of a metric in Prometheus's text format, each with its labels. */
function samples(text: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  const found = [];
  for (const line of text.split("\n")) {
    const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m?.[1] !== name) continue;
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    found.push({ labels, value: Number(m[3]) });
  }
  return found;
}
const sample = (text: string, name: string, labels: Record<string, string> = {}) =>
  samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

const PRODUCTION = {
  NODE_ENV: "production",
  // Only for the configuration: the app still runs on the test database.
  DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
  BETTER_AUTH_SECRET: "a-production-secret-that-is-long-enough-0123456789",
  PUBLIC_URL: "http://localhost:3000",
  PAYMENTS_PROVIDER: "test",
  MAIL_TRANSPORT: "outbox",
};
const TOKEN = "metrics-token-for-the-tests-0123";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("/metrics", () => {
  it("has a latency histogram by route pattern: ids folded, data requests marked, unknown paths one label", async () => {
    const gigId = randomUUID();
    const paths = ["/browse-gigs", "/browse-gigs", `/gig/${gigId}`, `/gig/${gigId}.data`, "/", "/_.data", "/no/such/page", `/healthz`];
    for (const path of paths) await app.request(path);
    const response = await app.request("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    // By route, whatever the status (an unknown gig redirects with a message).
    const count = (route: string) =>
      samples(text, "http_request_duration_seconds_count")
        .filter((s) => s.labels.method === "GET" && s.labels.route === route)
        .reduce((sum, s) => sum + s.value, 0);
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: "/browse-gigs", status: "200" })).toBe(2);
    expect(count("/gig/:id")).toBe(1);
    expect(count("/gig/:id.data")).toBe(1);
    expect(count("/")).toBe(1);
    expect(count("/_.data")).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { route: "/*", status: "404" })).toBe(1);
    expect(count("/healthz")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "http_request_duration_seconds_bucket", { route: "/browse-gigs", le: "+Inf" })).toBe(2);
    expect(text).not.toContain(gigId);
    expect(text).not.toContain("/no/such/page");
    // The process's default metrics.
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeDefined();
  });

  it("never lists the operator console's routes: its pages count as unknown addresses, for operators and everyone else (issue 30)", async () => {
    const operator = await signUpAs(app, "consumer", "Olga Operator");
    await changeUser(app, operator.id, { operatorSince: new Date() });
    const before = await (await app.request("/metrics")).text();
    const unknown = (text: string, route: string) =>
      samples(text, "http_request_duration_seconds_count")
        .filter((s) => s.labels.route === route)
        .reduce((sum, s) => sum + s.value, 0);
    const pages = ["/ops", "/ops/users", `/ops/users/${operator.id}`, "/ops/audit?action=user.suspend", "/OPS/Users"];
    const data = ["/ops.data", "/ops/gigs.data"];
    for (const client of [operator.client, new SessionClient(app)]) {
      for (const path of [...pages, ...data]) await client.get(path);
    }
    // The operator was answered: the pages exist for them.
    expect((await operator.client.get("/ops/users")).status).toBe(200);
    const text = await (await app.request("/metrics")).text();
    expect(text).not.toMatch(/route="\/ops/i);
    expect(text).not.toContain(operator.id);
    expect(unknown(text, "/*") - unknown(before, "/*")).toBe(2 * pages.length + 1);
    expect(unknown(text, "/*.data") - unknown(before, "/*.data")).toBe(2 * data.length);
  });

  it("has the event loop's delay as a histogram, counting a stall in its bucket", async () => {
    // Both buckets from one scrape: a stall between two scrapes would count in one and not the other.
    const counts = async () => {
      const text = await (await app.request("/metrics")).text();
      const count = (le: string) => sample(text, "nodejs_eventloop_delay_seconds_bucket", { le }) ?? 0;
      return { slow: count("0.05"), all: count("+Inf") };
    };
    const before = await counts();
    const until = performance.now() + 80;
    while (performance.now() < until); // the event loop blocked for 80 ms
    await new Promise((resolve) => setTimeout(resolve, 30));
    const after = await counts();
    expect(after.all).toBeGreaterThan(before.all);
    // The tick after the stall was more than 50 ms late: counted above the 0.05 s bucket.
    expect(after.all - after.slow).toBeGreaterThan(before.all - before.slow);
  });

  it("reports the database pool on PostgreSQL, with the time queries waited for a connection, and no pool on PGlite", async () => {
    await app.request("/browse-gigs");
    const text = await (await app.request("/metrics")).text();
    if (app.database.kind === "postgres") {
      // Every query asked the pool for a connection, and each wait is counted.
      expect(sample(text, "db_pool_wait_seconds_count")).toBeGreaterThan(0);
      expect(sample(text, "db_pool_wait_seconds_bucket", { le: "+Inf" })).toBe(sample(text, "db_pool_wait_seconds_count"));
      expect(sample(text, "db_pool_connections")).toBeGreaterThanOrEqual(1);
      expect(sample(text, "db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
      expect(sample(text, "db_pool_waiting_requests")).toBe(0);
      expect(sample(text, "db_pool_max_connections")).toBe(5);

      // Every connection held: the next query waits until one is given back.
      const { driver } = app.database;
      if (driver.kind !== "postgres") throw new Error("unreachable");
      const slow = (t: string) => (sample(t, "db_pool_wait_seconds_count") ?? 0) - (sample(t, "db_pool_wait_seconds_bucket", { le: "0.05" }) ?? 0);
      const held = await Promise.all(Array.from({ length: 5 }, () => driver.pool.connect()));
      const waiting = driver.pool.query("select 1");
      await new Promise((resolve) => setTimeout(resolve, 80));
      for (const client of held) client.release();
      await waiting;
      const after = await (await app.request("/metrics")).text();
      expect(slow(after)).toBeGreaterThan(slow(text));
    } else {
      expect(text).not.toContain("db_pool_");
    }
  });

  it("reports a job queue's depth and failures, asked at each scrape; a failing queue says so", async () => {
    // The app's own queue (server/workers.ts registers it), counted at each scrape.
    let text = await (await app.request("/metrics")).text();
    expect(sample(text, "job_queue_depth", { queue: "refund.send", state: "queued" })).toBe(0);
    expect(sample(text, "job_queue_failed", { queue: "email.deliver" })).toBe(0);
    await app.services.jobs.send("refund.send", { refundId: randomUUID() }, { startAfterSeconds: 3600 });
    text = await (await app.request("/metrics")).text();
    expect(sample(text, "job_queue_depth", { queue: "refund.send", state: "queued" })).toBe(1);

    // Another source replaces it: here the mail outbox read as a queue: pending e-mails wait, those with an error have failed.
    const outbox: JobQueueSource = async () => {
      const [row] = await queryRows<{ queued: number; failed: number }>(
        app.services.db,
        sql`select count(*) filter (where status = 'pending' and last_error is null)::int as queued,
                   count(*) filter (where status = 'pending' and last_error is not null)::int as failed
              from emails`,
      );
      return [{ queue: "mail", queued: row!.queued, active: 0, failed: row!.failed }];
    };
    app.services.metrics.registerJobQueue(outbox);
    const email = () => ({ toAddress: `${randomUUID()}@example.com`, subject: "Hi", textBody: "Hi", kind: "transactional" as const });
    await app.database.db.insert(emails).values([email(), email(), { ...email(), lastError: "connection refused" }]);
    text = await (await app.request("/metrics")).text();
    expect(sample(text, "job_queue_depth", { queue: "mail", state: "queued" })).toBe(2);
    expect(sample(text, "job_queue_depth", { queue: "mail", state: "active" })).toBe(0);
    expect(sample(text, "job_queue_failed", { queue: "mail" })).toBe(1);
    expect(sample(text, "job_queue_up")).toBe(1);

    await app.database.db.insert(emails).values(email());
    text = await (await app.request("/metrics")).text();
    expect(sample(text, "job_queue_depth", { queue: "mail", state: "queued" })).toBe(3);

    app.services.metrics.registerJobQueue(() => Promise.reject(new Error("the queue's database is away")));
    const failing = await app.request("/metrics");
    expect(failing.status).toBe(200);
    text = await failing.text();
    expect(sample(text, "job_queue_up")).toBe(0);
    expect(samples(text, "job_queue_depth")).toEqual([]);
  });

  it("each set of services has a registry of its own", async () => {
    const [one, two] = [createMetrics(), createMetrics()];
    one.observeRequest({ method: "GET", route: "/terms", status: 200 }, 0.01);
    const seen = async (m: typeof one) =>
      sample(await m.registry.metrics(), "http_request_duration_seconds_count", { route: "/terms" });
    expect([await seen(one), await seen(two)]).toEqual([1, undefined]);
  });

  it("in production: 404 without METRICS_TOKEN; with it 401 without the right bearer token, 200 with it, never cached", async () => {
    const closed = await createTestApp(PRODUCTION);
    const guarded = await createTestApp({ ...PRODUCTION, METRICS_TOKEN: TOKEN });
    try {
      expect((await closed.request("/metrics")).status).toBe(404);
      expect((await closed.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);

      const refused = await guarded.request("/metrics");
      expect([refused.status, refused.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="metrics"']);
      for (const authorization of [`Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
        expect((await guarded.request("/metrics", { headers: { authorization } })).status, authorization).toBe(401);
      }
      const scrape = async () => {
        const response = await guarded.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
        expect([response.status, response.headers.get("cache-control"), response.headers.get("x-page-cache")]).toEqual([200, "no-store", null]);
        return sample(await response.text(), "http_request_duration_seconds_count", { route: "/metrics", status: "200" }) ?? 0;
      };
      // The page cache is on in production; every scrape is counted afresh.
      const first = await scrape();
      expect(await scrape()).toBe(first + 1);
    } finally {
      await Promise.all([closed.close(), guarded.close()]);
    }
  });
});
