/**
 * Tells every server process that public data changed, so each one empties its page cache
 * (page-cache.ts; docs/decisions/0010-page-cache.md, "Across servers"). A change is a notice
 * on the process bus's `page_cache` channel (bus.ts: one LISTEN connection per process, shared
 * with the live stream) carrying this cache's id; on the embedded PGlite there is one process,
 * and it only runs its own subscribers.
 *
 * A burst of changes sends one notice at once and at most one more per 100 ms after it, so
 * another server hears of a change within about 100 ms plus a round trip. While the listening
 * connection is down, other servers' changes are bounded by the page cache's time to live;
 * when it is back, the cache is emptied, since notices may have been missed.
 */
import { randomUUID } from "node:crypto";
import type { Bus } from "./bus.ts";
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
}

const PAGE_CACHE_CHANNEL = "page_cache";
/** At most one notice per this many milliseconds from one process. */
const COALESCE_MS = 100;

export function createPageCacheBus(driver: DatabaseDriver, bus: Bus, logger: Logger): PageCacheBus {
  const subscribers = new Set<() => void>();
  const clearHere = () => {
    for (const clear of subscribers) clear();
  };
  if (driver.kind !== "postgres") {
    return {
      invalidate: clearHere,
      subscribe: (clear) => void subscribers.add(clear),
    };
  }

  const log = logger.child({ component: "page-cache-bus" });
  // Not the process id: tests run two servers in one process.
  const id = randomUUID();
  let cooling: NodeJS.Timeout | undefined;
  let pending = false;
  const publish = () => {
    if (cooling) {
      pending = true;
      return;
    }
    bus.send(PAGE_CACHE_CHANNEL, id).catch((error: unknown) => {
      log.warn({ err: error }, "page cache notice not sent; other servers keep their pages until they expire");
    });
    cooling = setTimeout(() => {
      cooling = undefined;
      if (pending) {
        pending = false;
        publish();
      }
    }, COALESCE_MS);
    cooling.unref();
  };

  let started = false;
  return {
    invalidate() {
      clearHere();
      publish();
    },
    subscribe(clear) {
      subscribers.add(clear);
      if (started) return;
      started = true;
      bus.subscribe(PAGE_CACHE_CHANNEL, {
        message: (payload) => {
          if (payload !== id) clearHere();
        },
        // Changes made while the bus was not listening were never heard.
        resync: clearHere,
      });
    },
  };
}
