/**
 * Liveness and readiness for load balancers and orchestrators (docs/decisions/
 * 0016-health-and-metrics.md). `/healthz` says the process is up and answering: it never
 * touches the database, so a database outage takes servers out of rotation (readiness)
 * without getting them restarted (liveness). `/readyz` says it can serve requests now: 200
 * once migrations are done and the database answers `select 1` within a short time, else
 * 503 with a reason.
 */
import { sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import type { Database } from "./db/client.ts";
import type { Logger } from "./logger.ts";
import { withTimeout } from "./with-timeout.ts";

/** Why the server cannot take requests yet. */
export type NotReadyReason = "migrating" | "starting" | "database unavailable";

/** What a 503 tells clients to wait: a restart or a migration takes seconds. */
export const RETRY_AFTER_SECONDS = 5;
/** How long readiness waits for `select 1`: far above a healthy answer, well below a probe's period. */
export const READY_TIMEOUT_MS = 2_000;

const NO_STORE = { "Cache-Control": "no-store" };
const UNAVAILABLE = { ...NO_STORE, "Retry-After": String(RETRY_AFTER_SECONDS) };

/** `GET /healthz`: the process is up. */
export const liveness = (c: Context) => c.json({ status: "ok" }, 200, NO_STORE);

const notReady = (c: Context, reason: NotReadyReason) =>
  c.json({ status: "unavailable", reason }, 503, UNAVAILABLE);

/**
 * `GET /readyz` of the full app (built after migrations): the database answers in time. One
 * check runs at a time, however many probes ask, so a hanging database never ties up more
 * than one connection of the pool with them. Reads `services.db` at each check.
 */
export function readiness(services: { db: Database; logger: Logger }) {
  let pending: Promise<boolean> | undefined;
  const check = async () => {
    try {
      await withTimeout(services.db.execute(sql`select 1`), READY_TIMEOUT_MS);
      return true;
    } catch (error) {
      services.logger.warn({ err: error }, "readiness check failed: database unavailable");
      return false;
    }
  };
  return async (c: Context) => {
    const ready = await (pending ??= check().finally(() => (pending = undefined)));
    return ready ? c.json({ status: "ready" }, 200, NO_STORE) : notReady(c, "database unavailable");
  };
}

/**
 * What the server answers while it starts (server/startup.ts): alive, not ready (`reason()`),
 * and every other request 503 with Retry-After.
 */
export function startingApp(reason: () => NotReadyReason): Hono {
  const app = new Hono();
  app.get("/healthz", liveness);
  app.get("/readyz", (c) => notReady(c, reason()));
  app.all("*", (c) => c.text("The server is starting. Please try again in a moment.", 503, UNAVAILABLE));
  return app;
}
