/**
 * The push case (issue 35, only when asked: `--only push`): on a fresh PostgreSQL database,
 * `pushes` devices (10 per account, the per-user limit of migration 0030) subscribed on the
 * tests' push service (tests/support/push-service.ts: it checks each push's VAPID signature
 * and decrypts it). The bench process enqueues one notice per account through `pushToUser`
 * (one `push.send` job per device, in the notice's transaction, as the event path does), and
 * the built server's workers send them. Figures: how long the enqueueing took, and the time
 * from the first enqueue until the push service had taken every push (goal: 10,000 within
 * 60 s); every push must arrive once, decrypted, none refused.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import webpush from "web-push";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/client.ts";
import { createJobQueue } from "../../server/jobs/queue.ts";
import { pushToUser } from "../../server/push/send.ts";
import { startPushService } from "../../tests/support/push-service.ts";
import { testCertificate } from "../../tests/support/tls-certificate.ts";
import { freshDatabase } from "./fresh-database.ts";
import { metric, METRICS_TOKEN, scrape } from "./metrics.ts";
import { startServer } from "./server.ts";

const DATABASE = "dg_bench_push";
const DEVICES_PER_ACCOUNT = 10;
/** How long the case waits for the pushes before giving up (the goal is 60 s). */
const DELIVERY_LIMIT_MS = 5 * 60_000;

export interface PushResult {
  pushes: number;
  accounts: number;
  /** Seconds to enqueue every job (one transaction per account). */
  enqueueSeconds: number;
  /** From the first enqueue until the push service had taken the last push; null: not all arrived in time. */
  deliverySeconds: number | null;
  delivered: number;
  refused: number;
  /** Pushes a second while they arrived. */
  deliveryRate: number;
  /** The server's CPU over the run (its /metrics), per push: what the machine's load does not inflate much. */
  serverCpuMsPerPush: number;
}

export async function pushCase({ pgServer, buildDir, pushes, log }: { pgServer: string; buildDir: string; pushes: number; log: (line: string) => void }): Promise<PushResult> {
  const url = await freshDatabase(pgServer, DATABASE);
  const keys = webpush.generateVAPIDKeys();
  const service = await startPushService(keys.publicKey);
  const caDir = mkdtempSync(path.join(tmpdir(), "dg-bench-push-"));
  const caFile = path.join(caDir, "push-service.pem");
  // The server trusts the push service's self-signed certificate as one more authority.
  writeFileSync(caFile, testCertificate().cert);
  const accounts = Math.ceil(pushes / DEVICES_PER_ACCOUNT);
  const handle = await openDatabase({ kind: "postgres", url, poolSize: 4 });
  try {
    await handle.migrate();
    const devices = Array.from({ length: pushes }, () => service.subscribe());
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into users (id, full_name, email, email_verified, user_type)
        select 'bench-push-' || n, 'Bench Push ' || n, 'bench-push-' || n || '@example.com', true, 'digger' from generate_series(1, ${accounts}) n`);
      await tx.execute(sql`insert into sessions (id, token, user_id, expires_at)
        select 'bench-push-session-' || n, 'bench-push-token-' || n, 'bench-push-' || n, now() + interval '1 day' from generate_series(1, ${accounts}) n`);
      await tx.execute(sql`insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth, device)
        select 'bench-push-' || (1 + (i - 1) / ${DEVICES_PER_ACCOUNT}), 'bench-push-session-' || (1 + (i - 1) / ${DEVICES_PER_ACCOUNT}),
               d->>'endpoint', d->>'p256dh', d->>'auth', 'Bench browser'
        from jsonb_array_elements(${JSON.stringify(devices.map(({ endpoint, p256dh, auth }) => ({ endpoint, p256dh, auth })))}::jsonb)
             with ordinality as s(d, i)`);
    });
    log(`  ${pushes} devices of ${accounts} accounts subscribed on the local push service`);

    const server = await startServer({ kind: "postgres", url }, buildDir, {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: "mailto:bench@example.com",
      NODE_EXTRA_CA_CERTS: caFile,
      METRICS_TOKEN,
    });
    const jobs = createJobQueue(handle, pino({ level: "silent" }));
    try {
      await jobs.start();
      const cpuBefore = metric(await scrape(server), "process_cpu_seconds_total");
      const started = performance.now();
      const message = { title: "A new lead in Plumbing", body: `Bench push ${randomUUID()}`, link: "/browse-gigs", urgency: "high" as const };
      for (let n = 1; n <= accounts; n += 1) {
        await handle.db.transaction((tx) => pushToUser(tx, jobs, `bench-push-${n}`, message));
      }
      const enqueueSeconds = (performance.now() - started) / 1000;
      log(`  ${pushes} push.send jobs enqueued in ${enqueueSeconds.toFixed(1)} s`);
      while (service.received.length + service.refused.length < pushes && performance.now() - started < DELIVERY_LIMIT_MS) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const finished = performance.now();
      const serverCpu = metric(await scrape(server), "process_cpu_seconds_total") - cpuBefore;
      const delivered = service.received.length;
      const unique = new Set(service.received.map((p) => p.subscription.endpoint)).size;
      const wrong = service.received.filter((p) => p.message.body !== message.body || p.urgency !== "high").length;
      if (unique !== delivered || wrong > 0) throw new Error(`bench: ${delivered - unique} pushes arrived twice, ${wrong} with another text or urgency`);
      const deliverySeconds = delivered === pushes ? (finished - started) / 1000 : null;
      const result = {
        pushes,
        accounts,
        enqueueSeconds: Math.round(enqueueSeconds * 10) / 10,
        deliverySeconds: deliverySeconds === null ? null : Math.round(deliverySeconds * 10) / 10,
        delivered,
        refused: service.refused.length,
        deliveryRate: Math.round(delivered / ((finished - started) / 1000)),
        serverCpuMsPerPush: Math.round((serverCpu * 1000 * 100) / Math.max(1, delivered)) / 100,
      };
      log(`  ${delivered} of ${pushes} pushes taken by the push service ${deliverySeconds === null ? "(not all in time)" : `in ${result.deliverySeconds} s`} (${result.deliveryRate}/s), ${result.refused} refused; the server's CPU ${result.serverCpuMsPerPush} ms a push`);
      return result;
    } finally {
      await jobs.stop();
      await server.stop();
    }
  } finally {
    await handle.close();
    await service.close();
    rmSync(caDir, { recursive: true, force: true });
  }
}
