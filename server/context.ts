/**
 * The types every request and every operation is handed: `AppServices` (configuration, database,
 * logger, mailer and notify (emit's machinery), emit (the one way operations tell of events), the
 * job queue, auth, rate limits, payments, file storage, metrics, the page cache's bus, live
 * updates, the one bus between processes, the push client and text messages) and `RequestContext`, React
 * Router's load context. Types only: services.ts builds the services, so what merely receives
 * them imports no builder.
 */
import type { Auth } from "./auth/auth.ts";
import type { LookupSession, SessionLookup } from "./auth/session.ts";
import type { SessionVersions } from "./auth/session-versions.ts";
import type { Bus } from "./bus.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { Emit } from "./events/emit.ts";
import type { Notify } from "./events/notify.ts";
import type { JobQueue } from "./jobs/queue.ts";
import type { LiveHub } from "./live/hub.ts";
import type { Logger } from "./logger.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { Metrics } from "./metrics.ts";
import type { PageCacheBus } from "./page-cache-bus.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import type { SmsSender } from "./phones/sms/sender.ts";
import type { PushClient } from "./push/push-service-client.ts";
import type { RateLimits } from "./security/rate-limiter.ts";
import type { Storage } from "./storage/storage.ts";

export interface AppServices {
  config: Config;
  db: Database;
  logger: Logger;
  mailer: Mailer;
  /** The bell's entry and its e-mail (events/notify.ts): emit's machinery, never called by operations. */
  notify: Notify;
  /**
   * Tells of an event, in its transaction: `emit(tx, { kind, ...data })` writes what its
   * declaration says (events/registry.ts): audit row, bell entries, e-mails, jobs.
   */
  emit: Emit;
  /** The one background job queue (jobs/queue.ts); workers run only where `startJobs` was called. */
  jobs: JobQueue;
  auth: Auth;
  rateLimits: RateLimits;
  /** Stripe, or the built-in test checkout (config.payments). */
  payments: PaymentProvider;
  /** Uploaded files (photos): an S3-compatible object store when configured, else DATA_DIR/uploads. */
  storage: Storage;
  /** Prometheus metrics of this process (its own registry); the job queue registers its figures here. */
  metrics: Metrics;
  /**
   * Empties the page cache of every server process (page-cache-bus.ts): call
   * `pageCache.invalidate()` after a background job changed what public pages show. Listens
   * only once an app mounts the page cache.
   */
  pageCache: PageCacheBus;
  /**
   * This process's open live streams (live/; `closeAll()` them on shutdown, before closing the
   * bus). A write tells users' open pages through its event's declared live updates (`emit`).
   */
  live: LiveHub;
  /** The one LISTEN connection of this process (bus.ts), under the page cache and live updates; `close()` it on shutdown. */
  bus: Bus;
  /** The versions of the signed session cookies (auth/session-versions.ts); `track` each request. */
  sessionVersions: SessionVersions;
  /** A request's signed-in user (auth/session.ts): the one way to read a session. */
  lookupSession: LookupSession;
  /** Web Push's client (push/push-service-client.ts); null without VAPID keys. Jobs send through it (push/send.ts). */
  push: PushClient | null;
  /** Text messages (phones/sms/): SNS or local mode's outbox; null: phone verification is off (issue 49). */
  sms: SmsSender | null;
}

export interface RequestFailure {
  /** A loader or action failed because the database could not be reached. */
  databaseUnavailable: boolean;
}

/** What every loader and action receives (React Router's load context), for server code that needs it. */
export interface RequestContext {
  services: AppServices;
  /** The request's logger, carrying its request id. */
  logger: Logger;
  requestId: string;
  /** The client's address: the socket's, or as trusted proxies name it (security/client-address.ts). */
  clientIp: string;
  /** The signed-in user of this request, looked up once however often it is asked for. */
  session(): Promise<SessionLookup>;
  /** What went wrong while handling this request, filled in by `handleError` (entry.server). */
  failure: RequestFailure;
}

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}
