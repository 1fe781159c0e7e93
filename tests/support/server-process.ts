/**
 * Runs the real server as a child process (`tsx server/main.ts`), for what only a process
 * can show: start-up configuration errors, what it answers while it starts, and graceful
 * shutdown. It serves the build in BUILD_DIR when that is set.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { serverNodeOptions } from "../../server/node-options.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `entry`: the server (default), or `server/cluster.ts` for several behind one port. */
export function startServerProcess(env: Record<string, string>, entry = "server/main.ts"): ServerProcess {
  // With the server's node options, as `npm start` runs it (decision 0064).
  const child = spawn(process.execPath, [...serverNodeOptions(), "--import", "tsx", entry], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Waits until the server is ready (`/readyz`): migrated, its database answering, the app serving.
 * PGlite's migrations and the demo seed take 20-30 s on a quiet 2-core machine and over 60 s
 * while the other suites run beside them: the wait allows for that.
 */
export async function waitForReady(url: string, server: ServerProcess, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become ready:\n${server.output()}`);
}
