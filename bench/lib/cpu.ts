/**
 * Pinning: the server on the first core, the load generator (this process) on the others.
 * On a 2-core machine they otherwise take turns on both cores, and how the scheduler splits
 * them moved one endpoint's throughput by up to 2x between rounds (bench/results/history.md,
 * "Pinned cores"), more than any change in the server did. PostgreSQL is left free to run on either core.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";

const cores = os.availableParallelism();
export const SERVER_CPUS = "0";
export const LOAD_CPUS = `1-${cores - 1}`;
const ALL_CPUS = `0-${cores - 1}`;

/** Two cores or more, and util-linux's taskset (Debian has it in every install). */
export function canPin(): boolean {
  return cores >= 2 && spawnSync("taskset", ["--version"]).status === 0;
}

/** Moves every thread of this process onto the given cores (a list such as "1-3"). */
function pinSelf(cpus: string) {
  const result = spawnSync("taskset", ["--all-tasks", "--cpu-list", "--pid", cpus, String(process.pid)]);
  if (result.status !== 0) throw new Error(`taskset failed: ${result.stderr.toString()}`);
}

/** Runs `work` with this process on the load generator's cores, then gives it every core back. */
export async function onLoadCores<T>(pin: boolean, work: () => Promise<T>): Promise<T> {
  if (!pin) return work();
  pinSelf(LOAD_CPUS);
  try {
    return await work();
  } finally {
    pinSelf(ALL_CPUS);
  }
}
