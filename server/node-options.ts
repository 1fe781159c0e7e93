/**
 * node's options for every server process (decision 0064), kept in node-options.json so that
 * `npm start` and `npm run serve` (scripts/serve.mjs, plain node) read the same list:
 * a young generation of 64 MB semi-spaces, so that a request's render, alive while its answer
 * is in flight, dies young instead of filling the old space and its collections' pauses; and
 * AsyncLocalStorage on V8's context frames instead of promise hooks on every promise (decision
 * 0086; node 24's default).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * This checkout's options; with `root`, those of the checkout there (the bench's "before" server
 * runs with its own: none if it predates the file).
 */
export function serverNodeOptions(root?: string): string[] {
  const file = root ? path.join(root, "server/node-options.json") : new URL("./node-options.json", import.meta.url);
  if (root && !existsSync(file)) return [];
  return JSON.parse(readFileSync(file, "utf8")) as string[];
}
