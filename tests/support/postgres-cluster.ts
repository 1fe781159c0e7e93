/**
 * A throwaway PostgreSQL cluster of a test's own (initdb in a temporary directory, its own
 * port on 127.0.0.1), so a test may stop and start it without touching the shared server
 * that other test runs use. As root, PostgreSQL's programs run as the `postgres` user.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports.ts";

export interface PostgresCluster {
  port: number;
  /** A URL of the cluster's `postgres` database, as the superuser. */
  url: string;
  /** pg_ctl stop: "fast" ends sessions cleanly, "immediate" drops them as a crash would. */
  stop(mode?: "fast" | "immediate"): void;
  start(): void;
  /** Stops the cluster if it runs and removes its files. */
  destroy(): void;
}

/** PostgreSQL's server programs: PG_BIN, or the newest /usr/lib/postgresql/<version>/bin. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("No PostgreSQL server programs: install postgresql, or set PG_BIN");
  return path.join(root, newest, "bin");
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "dg-pg-"));
  const dataDir = path.join(dir, "data");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const [command, commandArgs] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, program), ...args]]
      : [path.join(bin, program), args];
    execFileSync(command, commandArgs, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  };
  run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  // Sockets go to the temporary directory: nothing of the shared server's is touched.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  let running = false;
  const cluster: PostgresCluster = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start() {
      run("pg_ctl", ["start", "-D", dataDir, "-w", "-t", "60", "-l", path.join(dir, "log"), "-o", options]);
      running = true;
    },
    stop(mode = "fast") {
      run("pg_ctl", ["stop", "-D", dataDir, "-w", "-t", "60", "-m", mode]);
      running = false;
    },
    destroy() {
      try {
        if (running) cluster.stop("immediate");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  try {
    cluster.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
