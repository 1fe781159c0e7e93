/**
 * Prometheus metrics (design: docs/decisions/0016-health-and-metrics.md): the process's
 * default metrics, its event-loop delay as a histogram, request latency by route pattern, the
 * database pool (and how long a query waits for one of its connections), and the job queue's
 * depth, each in a registry of its own per `AppServices`, so that tests can make several
 * apps. `GET /metrics` serves them in the text format: open in local mode, and in production
 * only with `METRICS_TOKEN` as a bearer token (404 without one configured).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Pool } from "pg";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { matchRoutes, type ServerBuild } from "react-router";
import { LIVE_PATH } from "#core/live-events.ts";
import type { Config } from "./config.ts";
import type { DatabaseDriver } from "./db/client.ts";
import { withTimeout } from "./with-timeout.ts";

/** What the job queue reports at each scrape, one row a queue. */
interface JobQueueStats {
  queue: string;
  /** Waiting to run (created or retrying). */
  queued: number;
  /** Running now. */
  active: number;
  /** Failed for good, and still kept by the queue. */
  failed: number;
}
export type JobQueueSource = () => Promise<JobQueueStats[]>;

export interface Metrics {
  readonly registry: Registry;
  /** One answered request; `route` is a pattern (see `routeLabel`), never a raw path. */
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** The job queue's figures, asked for at every scrape; a later call replaces an earlier one. */
  registerJobQueue(source: JobQueueSource): void;
}

/** How long a scrape waits for the job queue's figures. */
const JOB_QUEUE_TIMEOUT_MS = 5_000;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function createMetrics(driver?: DatabaseDriver): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(eventLoopDelay());

  const requests = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status code.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });

  if (driver?.kind === "postgres") {
    registerPoolGauges(registry, driver.pool);
    timePoolWaits(registry, driver.pool);
  }
  // PGlite is one connection inside this process: there is no pool to report.

  let jobQueue: JobQueueSource | undefined;

  return {
    registry,
    observeRequest({ method, route, status }, seconds) {
      requests.observe({ method: METHODS.has(method) ? method : "other", route, status: String(status) }, seconds);
    },
    registerJobQueue(source) {
      // The gauges appear with the first job queue: a process without one shows none.
      if (!jobQueue) registerJobQueueGauges(registry, () => jobQueue!());
      jobQueue = source;
    },
  };
}

function registerPoolGauges(registry: Registry, pool: Pool) {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge("db_pool_connections", "Connections the database pool holds, in use or idle.", () => pool.totalCount);
  gauge("db_pool_idle_connections", "Connections of the database pool that are idle.", () => pool.idleCount);
  gauge("db_pool_waiting_requests", "Queries waiting for a connection of the database pool.", () => pool.waitingCount);
  gauge("db_pool_max_connections", "The most connections the database pool may open.", () => pool.options.max ?? 10);
}

/** Short waits are the rule; the buckets are for the stalls (issue 35). */
const DELAY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * How long each query waited for a connection of the pool: from asking (`pool.connect`, which
 * `pool.query` calls too) to having one, or to the failure. One wrapper per registry.
 */
function timePoolWaits(registry: Registry, pool: Pool) {
  const waits = new Histogram({
    name: "db_pool_wait_seconds",
    help: "Time from asking the database pool for a connection to getting one (or failing to).",
    buckets: DELAY_BUCKETS,
    registers: [registry],
  });
  const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => unknown;
  const patched = (callback?: (...args: unknown[]) => void) => {
    const started = performance.now();
    const done = () => waits.observe((performance.now() - started) / 1000);
    if (callback) {
      return connect((...args) => {
        done();
        callback(...args);
      });
    }
    return (connect() as Promise<unknown>).finally(done);
  };
  pool.connect = patched as Pool["connect"];
}

/** The timer's period: a stall shows as the lateness of the next tick. */
const LOOP_TICK_MS = 10;
let loopDelay: Histogram | undefined;

/**
 * The event loop's delay as a histogram: every 10 ms, how late the timer ran. The event loop
 * is the process's, so one histogram (and one timer, unref'd) serves every registry; the
 * default metrics' `nodejs_eventloop_lag_*` only give percentiles since the last scrape.
 */
function eventLoopDelay(): Histogram {
  if (loopDelay) return loopDelay;
  const histogram = new Histogram({
    name: "nodejs_eventloop_delay_seconds",
    help: "How late a 10 ms timer ran: the time the event loop was busy past it.",
    buckets: DELAY_BUCKETS,
    registers: [],
  });
  let expected = performance.now() + LOOP_TICK_MS;
  setInterval(() => {
    const now = performance.now();
    histogram.observe(Math.max(0, now - expected) / 1000);
    expected = now + LOOP_TICK_MS;
  }, LOOP_TICK_MS).unref();
  return (loopDelay = histogram);
}

function registerJobQueueGauges(registry: Registry, read: JobQueueSource) {
  // A scrape collects every metric at once: one question to the queue serves all three.
  let pending: Promise<void> | undefined;
  const collect = () =>
    (pending ??= (async () => {
      depth.reset();
      failed.reset();
      try {
        for (const row of await withTimeout(read(), JOB_QUEUE_TIMEOUT_MS)) {
          depth.set({ queue: row.queue, state: "queued" }, row.queued);
          depth.set({ queue: row.queue, state: "active" }, row.active);
          failed.set({ queue: row.queue }, row.failed);
        }
        up.set(1);
      } catch {
        // The database may be away: the scrape still answers, and says so.
        depth.reset();
        failed.reset();
        up.set(0);
      }
    })().finally(() => (pending = undefined)));
  const depth = new Gauge({
    name: "job_queue_depth",
    help: "Jobs in each queue by state (queued: waiting to run; active: running).",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    collect,
  });
  const failed = new Gauge({
    name: "job_queue_failed",
    help: "Jobs of each queue that failed for good and are still kept.",
    labelNames: ["queue"] as const,
    registers: [registry],
    collect,
  });
  const up = new Gauge({
    name: "job_queue_up",
    help: "1 when the job queue answered this scrape, 0 when asking it failed.",
    registers: [registry],
    collect,
  });
}

/** The operator console's routes: /ops and everything under it. */
const CONSOLE_ROUTE = /^\/ops(\/|$)/;

/**
 * Route patterns of the React Router build: `/gig/<uuid>` is `/gig/:id`, a data request
 * (`/gig/<uuid>.data`, the home page's `/_.data`) its page's pattern with `.data`, and an
 * unknown address the catch-all `/*`. So the label's values are bounded by the route table.
 * The operator console's routes are left out, so they count as unknown addresses: the console
 * is the 404 page for everyone but operators, and /metrics, open in local mode, would
 * otherwise list its pages and tell its 404s from a missing page's (issue 30).
 */
export function routePatterns(routes: ServerBuild["routes"]): (pathname: string) => string {
  const fullPath = (id: string | undefined): string => {
    const route = id ? routes[id] : undefined;
    if (!route) return "";
    const parent = fullPath(route.parentId);
    return route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
  };
  const table = [...new Set(Object.keys(routes).map((id) => fullPath(id) || "/"))]
    .filter((path) => !CONSOLE_ROUTE.test(path))
    .map((path) => ({ path }));
  // matchRoutes flattens and ranks the whole table on every call (a fifth of a millisecond,
  // 1.5-2.5% of a signed-in page's CPU: bench/results/history.md, 'Where a signed-in request's CPU
  // goes'): each address is matched once, and the addresses kept are bounded.
  const known = new Map<string, string>();
  return (pathname) => {
    let label = known.get(pathname);
    if (label !== undefined) return label;
    const data = pathname.endsWith(".data");
    const page = data ? pathname.slice(0, -".data".length).replace(/^\/_$/, "/") : pathname;
    const matches = matchRoutes(table, page);
    const pattern = matches?.[matches.length - 1]?.route.path ?? "/*";
    label = data ? `${pattern === "/" ? "/_" : pattern}.data` : pattern;
    if (known.size >= KNOWN_ADDRESSES) known.clear();
    known.set(pathname, label);
    return label;
  };
}

/** The addresses whose route pattern is kept (then all are forgotten): the pages most asked for. */
const KNOWN_ADDRESSES = 1000;

/**
 * Times every request into `http_request_duration_seconds`. Hono's own routes are labelled
 * with their path (`/healthz`, `/api/auth/*`, `/assets/*`); what reaches React Router's
 * catch-all, or is answered by a middleware before any route, by the build's route pattern.
 * The live stream (`/messages/live`) is not timed: it lasts as long as its page is open.
 */
export function requestMetrics(
  metrics: Metrics,
  build: ServerBuild | (() => Promise<ServerBuild>),
): MiddlewareHandler {
  let patterns: Promise<(pathname: string) => string> | undefined;
  const patternsOf = () =>
    typeof build === "function"
      ? build().then((b) => routePatterns(b.routes)) // development: the build changes under Vite
      : (patterns ??= Promise.resolve(routePatterns(build.routes)));
  return async (c, next) => {
    // A live stream lasts as long as its page is open: not a request's latency.
    if (c.req.path === LIVE_PATH) return next();
    const started = performance.now();
    await next();
    const honoRoute = c.req.routePath;
    const route = honoRoute === "/*" || honoRoute === "*" ? (await patternsOf())(c.req.path) : honoRoute;
    metrics.observeRequest({ method: c.req.method, route, status: c.res.status }, (performance.now() - started) / 1000);
  };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * `GET /metrics`. With `METRICS_TOKEN` set it asks for `Authorization: Bearer <token>` in
 * every mode (compared in constant time); without one it is open in local mode and absent
 * (404) in production.
 */
export function metricsEndpoint(metrics: Metrics, config: Pick<Config, "mode" | "metricsToken">) {
  const expected = config.metricsToken ? digest(config.metricsToken) : undefined;
  return async (c: Context) => {
    c.header("Cache-Control", "no-store");
    if (!expected && config.mode === "production") return c.text("Not found", 404);
    if (expected) {
      const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(digest(given), expected)) {
        return c.text("Unauthorized", 401, { "WWW-Authenticate": 'Bearer realm="metrics"' });
      }
    }
    return c.body(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType });
  };
}
