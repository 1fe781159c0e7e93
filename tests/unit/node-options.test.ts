/**
 * The server's node options (server/node-options.json, decision 0064): node starts with them,
 * and the young generation they ask for is really there (V8's heap limit counts the young
 * generation: three semi-spaces' worth), in every way a server process starts.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverNodeOptions } from "../../server/node-options.ts";

const root = path.resolve(import.meta.dirname, "../..");
const heapLimitMb = (options: string[]) =>
  Number(execFileSync(process.execPath, [...options, "-e", "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit / 1048576))"]).toString());

describe("the server's node options", () => {
  it("give a young generation of 64 MB semi-spaces, which node accepts", () => {
    const options = serverNodeOptions();
    expect(options).toContain("--max-semi-space-size=64");
    // Default semi-spaces are 16 MB on this node: 3 x 48 MB more (144); over 100 whatever the default.
    expect(heapLimitMb(options) - heapLimitMb([])).toBeGreaterThan(100);
  });

  it("keep AsyncLocalStorage on V8's context frames (no promise hook per promise), its store still following awaits and timers", () => {
    expect(serverNodeOptions()).toContain("--experimental-async-context-frame");
    const script = `
      const { AsyncLocalStorage } = require("node:async_hooks");
      const storage = new AsyncLocalStorage();
      // The promise-hook implementation makes an AsyncResource in run(); the frame one does not.
      const frames = !AsyncLocalStorage.prototype.run.toString().includes("AsyncResource");
      storage.run({ request: 1 }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await null;
        process.stdout.write(JSON.stringify({ frames, store: storage.getStore() }));
      });
    `;
    const withOptions = JSON.parse(execFileSync(process.execPath, [...serverNodeOptions(), "-e", script]).toString());
    expect(withOptions).toEqual({ frames: true, store: { request: 1 } });
    // Without the option this node keeps the promise hooks: the check above can tell them apart.
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script]).toString()).frames).toBe(false);
  });

  it("are what `npm start` and `npm run serve`, the cluster's workers, the test servers and the bench pass to node", () => {
    for (const file of ["scripts/serve.mjs", "server/cluster.ts", "tests/support/server-process.ts", "bench/lib/server.ts", "playwright.config.ts"]) {
      expect(readFileSync(path.join(root, file), "utf8"), file).toMatch(/node-options\.(json|ts)/);
    }
    expect(readFileSync(path.join(root, "scripts/start.mjs"), "utf8")).toContain('import("./serve.mjs")');
    // The bench's "before" server runs with its own checkout's options: this one's, or none before the file.
    expect(serverNodeOptions(root)).toEqual(serverNodeOptions());
    expect(serverNodeOptions(path.join(root, "docs"))).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.serve).toBe("node scripts/serve.mjs");
  });
});
