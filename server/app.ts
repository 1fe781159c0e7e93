/**
 * The Hono application: request ids and logs, metrics, health checks, static assets, and the
 * React Router request handler for everything else. It takes its services and the React
 * Router build as arguments, so tests can run it in-process with `app.request()`.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { createRequestHandler, type ServerBuild } from "react-router";
import { MAX_PHOTO_BYTES, MAX_WORK_PHOTOS } from "#core/digger-schemas.ts";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from "#core/message-attachments.ts";
import { CLIENT_IP_HEADER } from "./auth/auth.ts";
import { AUTH_ERROR_PATH, authErrorLocation } from "./auth/error-page.ts";
import type { SessionLookup } from "./auth/session.ts";
import { isDatabaseUnavailable } from "./db/errors.ts";
import { stripeWebhookHandler } from "./leads/webhook.ts";
import { liveness, readiness, RETRY_AFTER_SECONDS } from "./health.ts";
import { LIVE_PATH } from "#core/live-events.ts";
import { liveStream } from "./live/stream-route.ts";
import type { Logger } from "./logger.ts";
import { clientAddressResolver } from "./security/client-address.ts";
import { metricsEndpoint, requestMetrics } from "./metrics.ts";
import { contentSecurityPolicy, formActionOrigins, newNonce } from "./security/csp.ts";
import { pageCache } from "./page-cache.ts";
import { originCheck } from "./security/csrf.ts";
import { actionOriginHosts, atPublicOrigin } from "./security/public-origin.ts";
import { refuseNulBytes } from "./security/nul-bytes.ts";
import type { AppServices, RequestFailure } from "./context.ts";
import { keyOfUploadUrl } from "./storage/storage.ts";
import { compression } from "./web/compression.ts";
import { markSessionRead, privateResponses } from "./security/private-responses.ts";

export interface AppOptions {
  services: AppServices;
  /** The React Router server build, or a function that loads it (Vite in development). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Where the built browser assets are; omitted in development, where Vite serves them. */
  clientDir?: string;
}

type Env = {
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
  Variables: { requestId: string; logger: Logger; cspNonce: string; clientIp: string };
};

/** The files at the top of the built client folder (from public/), such as favicon.svg. */
const topLevelFiles = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== "README.md")
    .map((entry) => entry.name);

const STRIPE_WEBHOOK_PATH = "/api/webhooks/stripe";
/** A thread's page and its data request: where a message's attachments are posted. */
const THREAD_PATH = /^\/messages\/[0-9a-f-]{36}(?:\.data)?$/i;
/** The installable app's files whose names never change (pwa/service-worker-build.ts, public/). */
const UNHASHED_APP_FILES = ["sw.js", "manifest.webmanifest", "offline.html", "offline.js"];

const KB = 1024;
const MB = 1024 * KB;
/** The most a request body may hold, by route (docs/security.md: request body limits). */
export const BODY_LIMITS = {
  /** Every other form and API call: the longest gig, each character multi-byte, is under 30 KB. */
  default: 100 * KB,
  /** A digger's registration with every photo at its size limit, plus the text fields. */
  diggerRegistration: (MAX_WORK_PHOTOS + 1) * MAX_PHOTO_BYTES + MB,
  /** A message with its 5 attachments at their size limit, plus the text (a thread's page, /messages/{id}). */
  messageWithAttachments: MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES + MB,
  /** Stripe's events are far smaller. */
  stripeWebhook: MB,
};
export const bodyTooLarge = (limit: number) =>
  `The request is too large: it must be at most ${limit % MB === 0 ? `${limit / MB} MB` : `${Math.round(limit / KB)} KB`}.`;
const limitBody = (maxSize: number) => bodyLimit({ maxSize, onError: (c) => c.text(bodyTooLarge(maxSize), 413) });

export function createApp({ services, build, clientDir }: AppOptions): Hono<Env> {
  const app = new Hono<Env>();
  const { logger, config, auth } = services;
  const clientAddressOf = clientAddressResolver(config.trustProxy);
  /** The one client address: the socket's, or as the trusted proxies name it (TRUST_PROXY). */
  const clientIpOf = (c: Context<Env>) => clientAddressOf(c.env?.incoming?.socket?.remoteAddress, c.req.header("x-forwarded-for"));

  // Outermost, so that a request's time includes every middleware (docs/decisions/0016).
  app.use(requestMetrics(services.metrics, build));
  // A session change heard during the request makes its signed session cookie unusable (decision 0053).
  app.use((_c, next) => services.sessionVersions.track(next));
  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    const clientIp = clientIpOf(c);
    c.set("clientIp", clientIp);
    // Better Auth reads the client's address from this header only: whatever a client sent in
    // it is replaced here, before anything reads the request.
    c.req.raw.headers.set(CLIENT_IP_HEADER, clientIp);
    const log = logger.child({ reqId: c.get("requestId") });
    c.set("logger", log);
    await next();
    // Set on the final response: React Router returns its own Response objects.
    c.res.headers.set("X-Request-Id", c.get("requestId"));
    log.info(
      { method: c.req.method, path: c.req.path, clientIp, status: c.res.status, ms: Math.round(performance.now() - started) },
      "request",
    );
  });
  // An answer that depends on the session is kept by no cache; a sign-out clears the browser's
  // (security/private-responses.ts). Outside every route that reads a session, the live stream's too.
  app.use(privateResponses());
  app.use(
    secureHeaders({
      strictTransportSecurity: config.mode === "production" ? "max-age=31536000; includeSubDomains" : false,
      xFrameOptions: "DENY",
      referrerPolicy: "strict-origin-when-cross-origin",
      crossOriginEmbedderPolicy: false,
    }),
  );
  // A fresh script nonce per request; a response that brings its own policy (uploads) keeps it.
  const formAction = formActionOrigins(config);
  const dev = typeof build === "function";
  app.use(async (c, next) => {
    c.set("cspNonce", newNonce());
    await next();
    if (!c.res.headers.has("Content-Security-Policy")) {
      // Read again: a page from the page cache brings the nonce it was rendered with.
      c.res.headers.set("Content-Security-Policy", contentSecurityPolicy(c.get("cspNonce"), { formAction, dev }));
    }
  });
  // Before anything reads a body. A Content-Length is checked at once (Node's parser never
  // passes on more than it says); a chunked body is counted as it arrives and refused as soon
  // as it passes the limit, never read whole (hono/body-limit).
  const defaultBodyLimit = limitBody(BODY_LIMITS.default);
  const registrationBodyLimit = limitBody(BODY_LIMITS.diggerRegistration);
  const bodyLimits = new Map([
    ["/digger-registration", registrationBodyLimit],
    ["/digger-registration.data", registrationBodyLimit],
    [STRIPE_WEBHOOK_PATH, limitBody(BODY_LIMITS.stripeWebhook)],
  ]);
  const messageBodyLimit = limitBody(BODY_LIMITS.messageWithAttachments);
  // A thread's allowance is for files: only a multipart body gets it (its reader streams it).
  const messageWithFiles = (c: Context<Env>) => THREAD_PATH.test(c.req.path) && (c.req.header("content-type") ?? "").startsWith("multipart/form-data");
  app.use((c, next) => (bodyLimits.get(c.req.path) ?? (messageWithFiles(c) ? messageBodyLimit : defaultBodyLimit))(c, next));
  // The live stream (live/): before the page cache and compression, which must never hold it
  // back, and left out of the latency metrics (metrics.ts): it lasts as long as the page is open.
  app.get(LIVE_PATH, liveStream(services));
  // Signed-out views of public pages, served again until a write here or on another server
  // (page-cache.ts); outside compression, so that a cached page is kept, and served, compressed.
  if (config.pageCacheSeconds > 0) app.use(pageCache(config.pageCacheSeconds, services.pageCache));
  // Brotli at its fastest, else gzip or deflate at a cheap level, for text made per request
  // (pages, data requests; web/compression.ts); the built assets bring their own compressed
  // copies (below). A page's JavaScript goes from about 520 KB to 170 KB on the wire
  // (bench/results/history.md; decision 0058).
  app.use(compression());
  // Every state-changing request must come from this site; Stripe's webhook proves itself
  // with its signature instead. Better Auth checks origins too, behind this.
  const loopbackAliases = config.mode === "local";
  app.use(originCheck({ publicUrl: config.publicUrl, exemptPaths: [STRIPE_WEBHOOK_PATH], loopbackAliases }));
  // PostgreSQL refuses text with NUL in it; no field of this site needs one (security/nul-bytes.ts).
  app.use(refuseNulBytes({ exemptPaths: [STRIPE_WEBHOOK_PATH], streamedMultipart: (path) => THREAD_PATH.test(path) }));

  // Liveness never touches the database; readiness does (server/health.ts).
  app.get("/healthz", liveness);
  app.get("/readyz", readiness(services));
  app.get("/metrics", metricsEndpoint(services.metrics, config));

  // Better Auth and React Router see each request at the public origin, whatever scheme and
  // host the hop from a proxy had (security/public-origin.ts).
  const publicOrigin = new URL(config.publicUrl).origin;
  // Better Auth's own error page would print the query's text on our origin (auth/error-page.ts).
  app.get(AUTH_ERROR_PATH, (c) => c.redirect(authErrorLocation(new URL(c.req.url).searchParams), 302));
  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    // Every answer of Better Auth is about an account or a session (get-session carries it whole).
    markSessionRead();
    try {
      return await auth.handler(atPublicOrigin(c.req.raw, publicOrigin));
    } catch (error) {
      // Better Auth's faults come out as they are (auth.ts): logged as a page's are, and the
      // database away is 503 with Retry-After, as for pages.
      c.get("logger").error({ err: error }, "request failed");
      if (!isDatabaseUnavailable(error)) return c.json({ message: "Something went wrong. Please try again." }, 500);
      return c.json({ message: "Please try again in a moment." }, 503, { "Retry-After": String(RETRY_AFTER_SECONDS) });
    }
  });

  app.post(STRIPE_WEBHOOK_PATH, stripeWebhookHandler(services));

  // Uploaded photos. Their names are content hashes, so they never change; the headers make
  // sure a browser only ever treats them as the image type they were stored as. Keys under
  // private/ are never served here, whatever is stored (server/storage/storage.ts).
  app.get("/uploads/*", async (c) => {
    const key = keyOfUploadUrl(c.req.path);
    const file = key === null ? null : await services.storage.get(key);
    if (!file) return c.text("Not found", 404);
    return c.body(new Uint8Array(file.data), 200, {
      "Content-Type": file.contentType,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  });

  // A proof's document is served only by its own address, with its own headers
  // (server/diggers/credential-documents.ts): never through React Router's data twin
  // (`….data`, which would carry the file as text without them) or any other spelling, upper
  // case included: Hono's paths are case-sensitive, React Router's are not.
  app.use("*", async (c, next) => {
    if (/^\/credentials\//i.test(c.req.path) && !/^\/credentials\/[^/]+\/document$/.test(c.req.path)) return c.text("Not found", 404);
    await next();
  });

  if (clientDir) {
    const root = path.relative(process.cwd(), clientDir) || ".";
    // Built assets have content hashes in their names, so they never change.
    app.use("/assets/*", async (c, next) => {
      await next();
      if (c.res.ok) c.res.headers.set("Cache-Control", "public, max-age=31536000, immutable");
    });
    // Only the build's own files: a catch-all static handler would look on disk for every page.
    const serveFiles = serveStatic({ root });
    // An asset's .br or .gz copy written at build time (web/precompressed-assets.ts), as the
    // browser accepts; without one, compression() above compresses the file as it goes.
    const serveAssets = serveStatic({ root, precompressed: true });
    // The service worker, the manifest and the offline page keep their names from build to
    // build: asked again every time, so that a new build's worker is found at the next visit
    // (pwa/README.md).
    for (const file of UNHASHED_APP_FILES) {
      app.get(`/${file}`, async (c, next) => {
        await next();
        if (c.res.ok) c.res.headers.set("Cache-Control", "no-cache");
      });
    }
    app.use("/assets/*", serveAssets);
    for (const file of topLevelFiles(clientDir)) app.get(`/${file}`, serveFiles);
  }

  // React Router's check of an action's Origin, set here from PUBLIC_URL rather than in
  // react-router.config.ts, where the build would fix one deployment's address.
  const allowedActionOrigins = actionOriginHosts(config.publicUrl, loopbackAliases);
  const withOrigins = (b: ServerBuild): ServerBuild => ({ ...b, allowedActionOrigins });
  const handleRequest = createRequestHandler(
    typeof build === "function" ? () => build().then(withOrigins) : withOrigins(build),
    config.nodeEnv === "production" ? "production" : "development",
  );
  app.all("*", async (c) => {
    let session: Promise<SessionLookup> | undefined;
    const failure: RequestFailure = { databaseUnavailable: false };
    const response = await handleRequest(atPublicOrigin(c.req.raw, publicOrigin), {
      services,
      logger: c.get("logger"),
      requestId: c.get("requestId"),
      clientIp: c.get("clientIp"),
      cspNonce: c.get("cspNonce"),
      session: () => (session ??= services.lookupSession(c.req.raw.headers)),
      failure,
    });
    // The database is away: the same "try again" page or data, as 503 with a hint of when,
    // so that browsers, crawlers and load balancers treat it as passing.
    if (response.status !== 500 || !failure.databaseUnavailable) return response;
    const headers = new Headers(response.headers);
    headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return new Response(response.body, { status: 503, headers });
  });

  return app;
}
