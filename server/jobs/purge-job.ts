/**
 * The purge as a scheduled job inside the server: a first run shortly after start (so a
 * server that restarts often still purges), then one every interval. The stop function
 * waits for a run in progress, so shutdown closes the database only after it.
 */
import { purgeDeletedAccounts, type PurgeServices } from "../privacy/purge.ts";

const FIRST_RUN_DELAY_MS = 10_000;

export function startPurgeJob(services: PurgeServices, intervalMs = 60 * 60 * 1000): () => Promise<void> {
  const log = services.logger.child({ component: "purge" });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = purgeDeletedAccounts(services)
      .then((purged) => {
        if (purged > 0) log.info({ purged }, "purged deleted accounts");
      })
      .catch((error: unknown) => log.error({ err: error }, "account purge run failed"))
      .finally(() => {
        if (!stopped) schedule(intervalMs);
      });
  };
  const schedule = (delay: number) => {
    timer = setTimeout(run, delay);
    timer.unref();
  };
  schedule(Math.min(FIRST_RUN_DELAY_MS, intervalMs));
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
