/**
 * The service worker (served as /sw.js, built by pwa/service-worker-build.ts). It keeps exactly one
 * thing offline: the build's static files (hashed assets, icons, the manifest and the offline
 * page), precached in a cache named after the build, so that a new build's worker replaces
 * the old one and deletes its cache. Everything else goes to the network and is never stored:
 * pages (signed-in HTML above all), loader data (`.data`), /api, the live stream, uploads and
 * documents. A navigation that finds no network gets the offline page.
 *
 * It also shows the pushes the server sends (server/push/) and opens or focuses their link.
 *
 * The DOM library types this file (tsconfig.json); the few service-worker types it needs
 * are declared here rather than adding the WebWorker library, which conflicts with the DOM's.
 */

/** Filled in by the build: every file to precache, and the build's version. */
declare const PRECACHE_URLS: string[];
declare const BUILD_VERSION: string;

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WorkerScope {
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly location: Location;
  readonly registration: { showNotification(title: string, options?: NotificationOptions): Promise<void> };
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
}

const worker = self as unknown as WorkerScope;
const CACHE_PREFIX = "dg-precache-";
const CACHE_NAME = `${CACHE_PREFIX}${BUILD_VERSION}`;
const OFFLINE_PAGE = "/offline.html";
const precached = new Set(PRECACHE_URLS);

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE_NAME)
      // Fetched past the HTTP cache, so that no stale copy is stored under the new build's name.
      .then((cache) => cache.addAll(PRECACHE_URLS.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === "navigate") {
    // The page itself is never stored: the network's answer, or the offline page without one.
    event.respondWith(fetch(request).catch(() => offlinePage()));
    return;
  }
  // A build file: from the precache (a query string means something else, so it goes out).
  if (url.search === "" && precached.has(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE_NAME }).then((hit) => hit ?? fetch(request)));
  }
  // Anything else is not answered here: the browser asks the network, and nothing is kept.
});

async function offlinePage(): Promise<Response> {
  const page = await caches.match(OFFLINE_PAGE, { cacheName: CACHE_NAME });
  return page ?? new Response("You are offline. Check your connection and try again.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** What server/push/ sends: a short title and body and a link on this site. */
interface PushMessage {
  title: string;
  body: string;
  link: string;
}

function pushMessage(value: unknown): PushMessage | null {
  if (typeof value !== "object" || value === null) return null;
  const { title, body, link } = value as Record<string, unknown>;
  if (typeof title !== "string" || typeof body !== "string" || typeof link !== "string") return null;
  return { title, body, link };
}

worker.addEventListener("push", (event) => {
  let message: PushMessage | null = null;
  try {
    message = pushMessage(event.data?.json());
  } catch {
    message = null;
  }
  if (!message) return;
  event.waitUntil(
    worker.registration.showNotification(message.title, {
      body: message.body,
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { link: message.link },
    }),
  );
});

/** Only a path on this site is opened, whatever a payload says. */
function sameOriginLink(value: unknown): string {
  const link = typeof value === "object" && value !== null ? (value as { link?: unknown }).link : undefined;
  if (typeof link !== "string") return "/";
  const url = new URL(link, worker.location.origin);
  return url.origin === worker.location.origin ? url.href : "/";
}

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = sameOriginLink(event.notification.data);
  event.waitUntil(
    worker.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      // The page already open in a tab is brought forward; otherwise it opens in a new one.
      const open = windows.find((client) => client.url === target);
      return open ? open.focus() : worker.clients.openWindow(target);
    }),
  );
});
