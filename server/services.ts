/**
 * Builds what the server hands to every request (`AppServices`, server/context.ts) and closes
 * it. Route loaders and actions receive it as React Router's load context, so server modules
 * hold no global state and tests build their own with `createServices`.
 */
import { createAuth } from "./auth/auth.ts";
import { createSessionLookup } from "./auth/session.ts";
import { createSessionVersions } from "./auth/session-versions.ts";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import type { DatabaseHandle } from "./db/client.ts";
import { CONVERSATION_REACTIONS } from "./conversations/reopen-quote.ts";
import { VISIT_REACTIONS } from "./conversations/visits/cancel-on-suspension.ts";
import { createEmit } from "./events/emit.ts";
import type { Logger } from "./logger.ts";
import { createBus } from "./bus.ts";
import { createJobQueue } from "./jobs/queue.ts";
import { createLiveHub } from "./live/hub.ts";
import { createMailer } from "./mail/mailer.ts";
import { createMetrics } from "./metrics.ts";
import { createNotify } from "./events/notify.ts";
import { createPageCacheBus } from "./page-cache-bus.ts";
import { createPaymentProvider } from "./payments/index.ts";
import { createPushClient } from "./push/push-service-client.ts";
import { createSmsSender } from "./phones/sms/sender.ts";
import { createRateLimits } from "./security/rate-limiter.ts";
import { createS3Storage } from "./storage/s3-storage.ts";
import { createLocalStorage } from "./storage/storage.ts";

export function createServices(config: Config, database: DatabaseHandle, logger: Logger): AppServices {
  const { db } = database;
  const jobs = createJobQueue(database, logger, { digestHour: config.digestHour, timeZone: config.timeZone });
  const mailer = createMailer({ config, db, logger, jobs });
  const rateLimits = createRateLimits(database.driver, { smsDailyCapPerCountry: config.smsDailyCapPerCountry });
  const bus = createBus(database.driver, logger, {
    heartbeatMs: config.busHeartbeatSeconds * 1000,
    heartbeatTimeoutMs: config.busHeartbeatTimeoutSeconds * 1000,
  });
  const metrics = createMetrics(database.driver);
  const sessionVersions = createSessionVersions(bus);
  const notify = createNotify(mailer);
  // Reactions: an area changes its own rows when another area's event happens (events/emit.ts).
  const emit = createEmit({ config, mailer, jobs, notify, reactions: { ...CONVERSATION_REACTIONS, ...VISIT_REACTIONS } });
  const auth = createAuth({ config, db, emit, logger, rateLimits, sessionVersions });
  return {
    config,
    db,
    logger,
    mailer,
    notify,
    emit,
    jobs,
    auth,
    sessionVersions,
    lookupSession: createSessionLookup(auth, sessionVersions),
    rateLimits,
    payments: createPaymentProvider(config),
    storage: config.storage.kind === "s3" ? createS3Storage(config.storage) : createLocalStorage(config.storage.dir),
    metrics,
    pageCache: createPageCacheBus(database.driver, bus, logger),
    live: createLiveHub({ bus, metrics, logger, heartbeatMs: config.liveHeartbeatSeconds * 1000, maxStreams: config.liveMaxStreams, maxStreamsPerNetwork: config.liveMaxStreamsPerNetwork }),
    bus,
    push: config.push ? createPushClient(config.push, { testHosts: config.pushServiceTestHosts }) : null,
    sms: createSmsSender(config.sms, db),
  };
}

/**
 * Closes what the services hold open, once the HTTP server takes no more requests and before the
 * database closes: live streams, the job queue, the SMTP pool, the push client's connections
 * and the bus's listening connection (open from the start: the session versions listen on it).
 * The server's shutdown, a command-line run and the tests' apps all end this way.
 */
export async function closeServices(services: AppServices): Promise<void> {
  services.live.closeAll();
  await services.jobs.stop();
  services.mailer.close();
  services.push?.close();
  services.sms?.close();
  await services.bus.close();
}
