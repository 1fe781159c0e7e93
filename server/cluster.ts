/**
 * `npm run cluster`: CLUSTER_SIZE identical server processes (default: one per core) on the
 * PostgreSQL database of DATABASE_URL, behind one port. Node's cluster module is the load
 * balancer: this primary process accepts the connections and hands them to the workers in
 * turn, so each worker sees the client's own address (no TRUST_PROXY needed here). Each
 * worker is `main.ts`: they migrate in turn (an advisory lock), share rate limits, page-cache
 * invalidations and the job queue through PostgreSQL, and keep files in the object store
 * when S3_* is set (docs/decisions/0018-cluster.md).
 *
 * A worker that dies is replaced (at most one replacement a second); SIGTERM or SIGINT stops
 * every worker gracefully, then the primary. Only one worker at a time runs the inbound SMTP
 * listener (INBOUND_SMTP_WORKER=1; server/conversations/inbound/start.ts).
 */
import "./runtime.ts";
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { serverNodeOptions } from "./node-options.ts";

if (cluster.isWorker) {
  await import("./main.ts");
} else {
  const size = process.env.CLUSTER_SIZE ? Number(process.env.CLUSTER_SIZE) : availableParallelism();
  if (!Number.isInteger(size) || size < 1 || size > 64) {
    console.error(`CLUSTER_SIZE: a whole number from 1 to 64, not "${process.env.CLUSTER_SIZE}"`);
    process.exit(1);
  }
  if (!process.env.DATABASE_URL) {
    // The embedded database belongs to one process: several servers need PostgreSQL.
    console.error("DATABASE_URL: required by npm run cluster (the embedded database serves one process; use npm start)");
    process.exit(1);
  }

  let stopping = false;
  let exitCode = 0;
  let lastFork = 0;
  // Exits in the last minute: workers that keep dying at start (a bad setting, a database
  // that refuses) end the cluster instead of restarting forever.
  const exits: number[] = [];
  // The one worker that runs the inbound SMTP listener (reply by e-mail, decision 0048), when
  // INBOUND_SMTP_PORT is set: the first, then whichever replaces it.
  let listenerWorker: Worker | undefined;
  // Each worker with the server's node options (decision 0064), whatever started the primary.
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...serverNodeOptions()] });
  const fork = () => {
    lastFork = Date.now();
    const listens = listenerWorker === undefined;
    const worker = cluster.fork(listens ? { INBOUND_SMTP_WORKER: "1" } : {});
    if (listens) listenerWorker = worker;
  };
  cluster.on("exit", (worker: Worker, code, signal) => {
    if (worker === listenerWorker) listenerWorker = undefined;
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    const now = Date.now();
    exits.push(now);
    while (exits[0]! < now - 60_000) exits.shift();
    if (exits.length > size * 3) {
      console.error(JSON.stringify({ msg: "workers keep exiting; stopping the cluster", exitsInLastMinute: exits.length }));
      exitCode = 1;
      stop("SIGTERM");
      return;
    }
    console.error(JSON.stringify({ msg: "worker exited; starting another", pid: worker.process.pid, code, signal }));
    // A worker that cannot start (bad configuration) would otherwise be restarted in a tight loop.
    setTimeout(fork, Math.max(0, 1000 - (Date.now() - lastFork)));
  });
  for (let i = 0; i < size; i += 1) fork();
  console.log(JSON.stringify({ msg: "cluster started", workers: size, pid: process.pid }));

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
