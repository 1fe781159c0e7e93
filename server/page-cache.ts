/**
 * A short-lived cache of what signed-out visitors see on the public pages (design: docs/
 * decisions/0010-page-cache.md). Rendering a page costs 3-10 ms of CPU, serving it from
 * memory a fraction of a millisecond, and most views of a marketplace are signed out.
 *
 * It is exact within one server process: every request that may change data (any method but
 * GET, HEAD and OPTIONS: forms, Better Auth, the Stripe webhook; and Better Auth's GETs too,
 * such as a provider's callback, which may confirm an e-mail and so publish gigs) empties it,
 * and a render that overlapped such a request is not kept. When such a request ends, the
 * page cache bus (page-cache-bus.ts) empties every other server's cache too, within a
 * second (PostgreSQL NOTIFY); background jobs that change public data tell it the same way
 * (`services.pageCache.invalidate()`). Whatever it misses is bounded by the time to live.
 * A cached page keeps the CSP nonce it was rendered with: its bytes never change, and every
 * new render gets a new nonce, so no markup written after the nonce was seen can carry it.
 */
import type { MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import type { PageCacheBus } from "./page-cache-bus.ts";

interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  body: ArrayBuffer;
  nonce: string;
}

/** The public pages and their data requests (single fetch: `/x.data`; the home page's is `/_.data`). */
const CACHEABLE_PATHS = [
  /^\/(_\.data)?$/,
  /^\/(browse-gigs|browse-diggers|how-it-works|terms|privacy|contact)(\.data)?$/,
  /^\/(gig|digger)\/[0-9a-f-]{36}(\.data)?$/i,
];
/** Any cookie of ours (session, flash message, sign-up kind) may change what a page shows. */
const OUR_COOKIE = /(?:^|;\s*)(?:__Secure-)?dg[._]/;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const AUTH_PATH = /^\/api\/auth\//;
const MAX_PAGE_BYTES = 512 * 1024;

type Env = { Variables: { cspNonce: string } };

/**
 * The middleware; `ttlSeconds` must be above 0 (the server leaves it out when it is 0). It
 * empties its cache at every change `bus` hears of, and tells `bus` of every write here.
 */
export function pageCache(ttlSeconds: number, bus: PageCacheBus): MiddlewareHandler<Env> {
  const pages = new LRUCache<string, CachedPage>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (page) => page.body.byteLength + 512,
    ttl: ttlSeconds * 1000,
  });
  // Bumped by every write; a render stores its page only if no write started meanwhile.
  let generation = 0;
  const clear = () => {
    generation += 1;
    pages.clear();
  };
  bus.subscribe(clear);

  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) || AUTH_PATH.test(c.req.path)) {
      clear();
      try {
        return await next();
      } finally {
        // Once the write is done: clears here, and other servers then render what it wrote.
        bus.invalidate();
      }
    }
    const url = new URL(c.req.url);
    const cookies = c.req.header("cookie") ?? "";
    if (c.req.method !== "GET" || OUR_COOKIE.test(cookies) || !CACHEABLE_PATHS.some((p) => p.test(url.pathname))) {
      return next();
    }
    // Pages are kept as sent, compressed or not, so each Accept-Encoding a browser sends (a
    // handful in practice) has its own copy.
    const key = `${(c.req.header("accept-encoding") ?? "").slice(0, 100)} ${url.pathname}${url.search}`;
    const hit = pages.get(key);
    if (hit) {
      c.set("cspNonce", hit.nonce);
      return new Response(hit.body, { status: hit.status, headers: [...hit.headers, ["X-Page-Cache", "hit"]] });
    }

    const started = generation;
    await next();
    const res = c.res;
    if (res.status !== 200 || res.headers.has("Set-Cookie") || /no-store|private/.test(res.headers.get("Cache-Control") ?? "")) return;
    const body = await res.arrayBuffer();
    const headers = [...res.headers.entries()];
    c.res = new Response(body, { status: res.status, headers: [...headers, ["X-Page-Cache", "miss"]] });
    if (generation === started && body.byteLength <= MAX_PAGE_BYTES) {
      pages.set(key, { status: res.status, headers, body, nonce: c.get("cspNonce") });
    }
  };
}
