/**
 * Tells every server process that public data changed, so each one empties its page cache
 * (page-cache.ts; docs/decisions/0010-page-cache.md, "Across servers"). On PostgreSQL a
 * change is a `NOTIFY page_cache` carrying this bus's id, and every bus LISTENs on one
 * dedicated connection of its own (which also sends), reopened with backoff when it drops;
 * on the embedded PGlite there is one process, and the bus only runs its own subscribers.
 *
 * A burst of changes sends one NOTIFY at once and at most one more per 100 ms after it, so
 * another server hears of a change within about 100 ms plus a round trip. While the listening
 * connection is down, other servers' changes are bounded by the page cache's time to live;
 * when it is back, the cache is emptied, since notifications may have been missed.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "pg";
import type { DatabaseDriver } from "./db/client.ts";
import type { Logger } from "./logger.ts";

export interface PageCacheBus {
  /**
   * Public data changed (a write request, a background job): runs this process's subscribers
   * at once and empties every other server's page cache within a second.
   */
  invalidate(): void;
  /** Runs `clear` at every change, here or on another server; the first subscriber starts listening. */
  subscribe(clear: () => void): void;
  /** Stops listening and sending; pending notices are dropped (the time to live still bounds them). */
  close(): Promise<void>;
}

export const PAGE_CACHE_CHANNEL = "page_cache";
/** The listening connection's name in pg_stat_activity. */
export const PAGE_CACHE_LISTENER_NAME = "digs-and-gigs-page-cache";
/** At most one NOTIFY per this many milliseconds from one process. */
const COALESCE_MS = 100;
const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;

export function createPageCacheBus(driver: DatabaseDriver, logger: Logger): PageCacheBus {
  const subscribers = new Set<() => void>();
  const clearHere = () => {
    for (const clear of subscribers) clear();
  };
  if (driver.kind !== "postgres") {
    return {
      invalidate: clearHere,
      subscribe: (clear) => void subscribers.add(clear),
      close: async () => {},
    };
  }

  const log = logger.child({ component: "page-cache-bus" });
  // Not the process id: tests run two servers in one process.
  const id = randomUUID();
  let closed = false;

  // Sending: the first change of a burst at once, through the listening connection while it
  // is up (it is idle, where the pool's may all be busy under load), else through the pool.
  let cooling: NodeJS.Timeout | undefined;
  let pending = false;
  let listener: Client | undefined;
  const send = (via: Client | undefined = listener): void => {
    (via ?? driver.pool).query("select pg_notify($1, $2)", [PAGE_CACHE_CHANNEL, id]).then(
      () => {},
      (error: unknown) => {
        // The listening connection just dropped: the pool, then.
        if (via) return send(undefined);
        log.warn({ err: error }, "page cache notice not sent; other servers keep their pages until they expire");
      },
    );
  };
  const publish = () => {
    if (closed) return;
    if (cooling) {
      pending = true;
      return;
    }
    send();
    cooling = setTimeout(() => {
      cooling = undefined;
      if (pending) {
        pending = false;
        publish();
      }
    }, COALESCE_MS);
    cooling.unref();
  };

  // Listening: one connection of its own, never the pool's, reopened until `close`.
  let client: Client | undefined;
  let started = false;
  let heardBefore = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_MIN_MS;
  const listen = async () => {
    retry = undefined;
    const { Client } = await import("pg");
    if (closed) return;
    const current = new Client({
      connectionString: driver.url,
      application_name: PAGE_CACHE_LISTENER_NAME,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    client = current;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (client === current) client = undefined;
      if (listener === current) listener = undefined;
      void current.end().catch(() => {});
      if (closed) return;
      log.warn({ err: error, retryInMs: delay }, "page cache listener lost; reconnecting");
      retry = setTimeout(() => void listen(), delay);
      retry.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    current.on("error", onLost);
    current.on("end", () => onLost());
    current.on("notification", (message) => {
      if (message.channel === PAGE_CACHE_CHANNEL && message.payload !== id) clearHere();
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${PAGE_CACHE_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (closed || lost) return;
    delay = RECONNECT_MIN_MS;
    // Changes made while it was away were never heard.
    if (heardBefore) log.info("page cache listener back");
    heardBefore = true;
    listener = current;
    clearHere();
  };

  return {
    invalidate() {
      clearHere();
      publish();
    },
    subscribe(clear) {
      subscribers.add(clear);
      if (started || closed) return;
      started = true;
      void listen();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(cooling);
      await client?.end().catch(() => {});
    },
  };
}
