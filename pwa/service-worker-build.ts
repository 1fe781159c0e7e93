/**
 * Writes the service worker (pwa/service-worker.ts) into the client build as /sw.js, at the end
 * of `react-router build` (its `buildEnd`, react-router.config.ts: React Router writes the
 * route manifest's script into the client's assets during the server build, after Vite's
 * client build is done), with the list of files it precaches and a version made from their contents: a new
 * build whose files differ has a new worker, which deletes the old build's cache when it takes
 * over. vite-plugin-pwa does not support React Router's framework mode
 * (vite-pwa/vite-plugin-pwa#809), and Workbox is more than one small worker needs
 * (docs/decisions/0039-installable-app-and-web-push.md).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { transformWithEsbuild } from "vite";
import { PRECOMPRESSED_SUFFIXES } from "../server/web/precompressed-assets.ts";

const SERVICE_WORKER_FILE = "sw.js";

/**
 * Files of the client build never precached: source maps, Vite's own manifest, notes, and the
 * assets' compressed copies (server/web/precompressed-assets.ts), which the server sends in
 * place of the file it names when the browser accepts them.
 */
const skipped = (relative: string) =>
  relative === SERVICE_WORKER_FILE ||
  relative.startsWith(".") ||
  relative.endsWith(".map") ||
  relative.endsWith("README.md") ||
  PRECOMPRESSED_SUFFIXES.some((suffix) => relative.endsWith(suffix));

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) files.push(...filesUnder(dir, relative));
    else if (entry.isFile() && !skipped(relative)) files.push(relative);
  }
  return files.sort();
}

/** The precache list and the build's version, from the client build's files. */
export function precacheOf(clientDir: string): { urls: string[]; version: string } {
  const files = filesUnder(clientDir);
  const hash = createHash("sha256");
  for (const file of files) hash.update(file).update("\0").update(readFileSync(path.join(clientDir, file))).update("\0");
  return { urls: files.map((file) => `/${file}`), version: hash.digest("hex").slice(0, 16) };
}

/** The worker's script for a client build (tested in tests/unit/service-worker-build.test.ts). */
export async function serviceWorkerScript(clientDir: string): Promise<string> {
  const source = readFileSync(path.join(import.meta.dirname, "service-worker.ts"), "utf8");
  const { urls, version } = precacheOf(clientDir);
  const { code } = await transformWithEsbuild(source, "service-worker.ts", {
    loader: "ts",
    format: "iife",
    target: "es2020",
    minify: true,
    define: { PRECACHE_URLS: JSON.stringify(urls), BUILD_VERSION: JSON.stringify(version) },
  });
  return code;
}

/** Writes /sw.js into the client build folder. */
export async function writeServiceWorker(clientDir: string): Promise<void> {
  writeFileSync(path.join(clientDir, SERVICE_WORKER_FILE), await serviceWorkerScript(clientDir));
}
