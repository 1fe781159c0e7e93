/**
 * What the server hands to every request (`AppServices`): configuration, database, logger,
 * mailer, notify, the job queue, auth, rate limits, payments, file storage, metrics and the
 * page cache's bus. Route loaders and actions receive it as React Router's load context, so
 * server modules hold no global state and tests build their own with `createServices`.
 */
import { createAuth, type Auth } from "./auth/auth.ts";
import type { SessionLookup } from "./auth/session.ts";
import type { Config } from "./config.ts";
import type { Database, DatabaseHandle } from "./db/client.ts";
import type { Logger } from "./logger.ts";
import { createJobQueue, type JobQueue } from "./jobs/queue.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { createNotify, type Notify } from "./notifications/notify.ts";
import { createPageCacheBus, type PageCacheBus } from "./page-cache-bus.ts";
import { createPaymentProvider } from "./payments/index.ts";
import { createPushClient, type PushClient } from "./push/push-service-client.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import { createRateLimits, type RateLimits } from "./security/rate-limiter.ts";
import { createS3Storage } from "./storage/s3-storage.ts";
import { createLocalStorage, type Storage } from "./storage/storage.ts";

export interface AppServices {
  config: Config;
  db: Database;
  logger: Logger;
  mailer: Mailer;
  /** Tells a user of an event: the bell's entry and the e-mail, in the event's transaction (notifications/notify.ts). */
  notify: Notify;
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
   * only once an app mounts the page cache; `close()` it on shutdown.
   */
  pageCache: PageCacheBus;
  /** Web Push's client (push/push-service-client.ts); null without VAPID keys. Jobs send through it (push/send.ts). */
  push: PushClient | null;
}

export function createServices(config: Config, database: DatabaseHandle, logger: Logger): AppServices {
  const { db } = database;
  const jobs = createJobQueue(database, logger, { digestHour: config.digestHour, timeZone: config.timeZone });
  const mailer = createMailer({ config, db, logger, jobs });
  const rateLimits = createRateLimits(database.driver);
  return {
    config,
    db,
    logger,
    mailer,
    notify: createNotify(mailer),
    jobs,
    auth: createAuth({ config, db, mailer, logger, rateLimits, jobs }),
    rateLimits,
    payments: createPaymentProvider(config),
    storage: config.storage.kind === "s3" ? createS3Storage(config.storage) : createLocalStorage(config.storage.dir),
    metrics: createMetrics(database.driver),
    pageCache: createPageCacheBus(database.driver, logger),
    push: config.push ? createPushClient(config.push) : null,
  };
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
