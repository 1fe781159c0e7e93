/**
 * The built server as a child process, as it runs in production: `tsx server/main.ts` with
 * the bench build, NODE_ENV=production on PostgreSQL (PGlite is refused in production, so an
 * embedded database runs in local mode), logging at warn so that log lines do not dominate.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverNodeOptions } from "../../server/node-options.ts";
import { freePort } from "../../tests/support/ports.ts";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

export interface BenchServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export type ServerDatabase = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/**
 * `extraEnv`: settings for this run, such as PAGE_CACHE_SECONDS; `cpus`: the cores the server
 * may run on (taskset's list, lib/cpu.ts), or every core; `entry`: the server, or
 * `server/cluster.ts` for CLUSTER_SIZE of them behind one port; `nodeArgs`: node's own options,
 * such as `--cpu-prof` (bench/profile.ts), which NODE_OPTIONS may not carry; `root`: another
 * checkout to run the server from (its own source and, with an absolute `buildDir`, build);
 * `node`: another node binary to run it on (bench/ab.ts's `--before-node`), or this one.
 */
export async function startServer(
  database: ServerDatabase,
  buildDir: string,
  extraEnv: Record<string, string> = {},
  cpus?: string,
  entry = "server/main.ts",
  { nodeArgs = [], root = projectRoot, node = process.execPath }: { nodeArgs?: string[]; root?: string; node?: string } = {},
): Promise<BenchServer> {
  // BENCH_CPU_PROF_DIR=DIR: any case's servers under `node --cpu-prof`, each profile written to
  // DIR at its exit (read with `npx tsx bench/cpu-profile.ts FILE`).
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  if (profileDir) nodeArgs = ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`, ...nodeArgs];
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "dg-bench-server-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: url,
    BUILD_DIR: buildDir,
    LOG_LEVEL: "warn",
    SEED_DEMO_DATA: "false",
    PAYMENTS_PROVIDER: "test",
    MAIL_TRANSPORT: "outbox",
    BETTER_AUTH_SECRET: "bench-secret-not-for-production-0123456789abcdef",
    ...(database.kind === "postgres"
      ? { NODE_ENV: "production", DATABASE_URL: database.url, DATA_DIR: dataDir }
      : { NODE_ENV: "development", DATA_DIR: database.dataDir }),
    ...extraEnv,
  };
  // The checkout's own node options first (decision 0064), as `npm start` and the cluster run it.
  const command = [node, ...serverNodeOptions(root), ...nodeArgs, "--import", "tsx", entry];
  if (cpus) command.unshift("taskset", "--cpu-list", cpus);
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  // A bench script that throws or is stopped leaves no server behind (it would go on using the
  // cores and the database, and skew the next run's figures).
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => process.off("exit", killOnExit));

  const deadline = Date.now() + 120_000;
  // A cluster hands connections round-robin: twice its size of ready answers in a row means
  // every server is ready.
  const readyInARow = 2 * Number(extraEnv.CLUSTER_SIZE ?? 1) - 1;
  let ready = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become ready:\n${output}`);
    }
    try {
      ready = (await fetch(`${url}/readyz`, { headers: { connection: "close" } })).ok ? ready + 1 : 0;
      if (ready > readyInARow) break;
      if (ready > 0) continue;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
      if (database.kind === "postgres") rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
