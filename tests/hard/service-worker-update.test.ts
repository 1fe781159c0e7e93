/**
 * The installable app (issue 34): a new build replaces the old service worker and leaves no
 * stale precache. The build of `npm run test:hard` (BUILD_DIR) is served and visited in
 * Chromium; then a second build, of a copy of the sources with one visible text changed, is
 * served at the same address. At the next visit the browser finds the new worker, which takes
 * over, keeps exactly the new build's files and deletes the old build's cache, and the page
 * shows the new text. Building takes minutes on a busy machine, hence here and not in npm test.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precacheOf } from "../../pwa/service-worker-build.ts";
import { findChromium } from "../support/chromium.ts";
import { freePort } from "../support/ports.ts";
import { startServerProcess, waitForReady, type ServerProcess } from "../support/server-process.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const firstBuild = path.resolve(projectRoot, process.env.BUILD_DIR ?? "build-hard");
const OLD_TAGLINE = "Find local talent. Find local work.";
const NEW_TAGLINE = "Find local talent. Find local work, again.";
/** What a build is made from (the rest of the project plays no part in `react-router build`). */
const SOURCES = ["app", "core", "server", "pwa", "public", "package.json", "tsconfig.json", "vite.config.ts", "react-router.config.ts"];

/** A copy of the sources with the landing page's tagline changed, built; its build folder. */
async function secondBuild(workDir: string): Promise<string> {
  for (const entry of SOURCES) cpSync(path.join(projectRoot, entry), path.join(workDir, entry), { recursive: true });
  symlinkSync(path.join(projectRoot, "node_modules"), path.join(workDir, "node_modules"), "dir");
  const home = path.join(workDir, "app/routes/home.tsx");
  const source = readFileSync(home, "utf8");
  expect(source).toContain(OLD_TAGLINE);
  writeFileSync(home, source.replace(OLD_TAGLINE, NEW_TAGLINE));
  const build = path.join(workDir, "build");
  // Not spawnSync: a blocked test worker loses touch with Vitest during a build of minutes.
  const child = spawn("npx", ["--no-install", "react-router", "build"], { cwd: workDir, env: { ...process.env, BUILD_DIR: build } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (status !== 0) throw new Error(`the second build failed:\n${output}`);
  return build;
}

/** The caches the page's origin holds: each name with the paths in it. */
/** A busy machine's patience for a worker to install and take over. */
const WAIT = { timeout: 60_000 };

const cachesOf = (page: Page) =>
  page.evaluate(async () => {
    const found: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      found[name] = (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname).sort();
    }
    return found;
  });

describe("a new build of the installable app", () => {
  let workDir: string;
  let dataDir: string;
  let browser: Browser;
  let server: ServerProcess | undefined;
  let url: string;
  let port: number;

  /** The local-mode server on the same address and data each time, serving `build`. */
  async function serve(build: string): Promise<void> {
    server = startServerProcess({ PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, DATA_DIR: dataDir, DATABASE_URL: "", BUILD_DIR: build, LOG_LEVEL: "warn" });
    await waitForReady(url, server, 120_000);
  }
  async function stop(): Promise<void> {
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }

  beforeAll(async () => {
    if (!existsSync(path.join(firstBuild, "client/sw.js"))) throw new Error(`no build in ${firstBuild}: npm run test:hard builds it first`);
    workDir = mkdtempSync(path.join(tmpdir(), "dg-rebuild-"));
    dataDir = mkdtempSync(path.join(tmpdir(), "dg-sw-data-"));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: findChromium(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stop();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("replaces the old worker, keeps only the new build's files and shows the new build", async () => {
    const second = await secondBuild(workDir);
    const before = precacheOf(path.join(firstBuild, "client"));
    const after = precacheOf(path.join(second, "client"));
    expect(after.version).not.toBe(before.version);
    const onlyBefore = before.urls.filter((file) => !after.urls.includes(file));
    // The changed page's module has a new hashed name: the old one must leave the cache.
    expect(onlyBefore.some((file) => file.startsWith("/assets/home-"))).toBe(true);

    await serve(firstBuild);
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), WAIT).toBe(true);
    await expect.poll(() => cachesOf(page), WAIT).toEqual({ [`dg-precache-${before.version}`]: [...before.urls].sort() });
    await expect(page.getByText(OLD_TAGLINE).count()).resolves.toBe(1);

    await stop();
    await serve(second);
    // The next visit checks /sw.js (never from the HTTP cache): the new worker installs and takes over.
    await page.reload();
    await expect.poll(() => cachesOf(page), WAIT).toEqual({ [`dg-precache-${after.version}`]: [...after.urls].sort() });
    await page.reload();
    await expect.poll(() => page.getByText(NEW_TAGLINE).count(), WAIT).toBe(1);
    const stillCached = Object.values(await cachesOf(page)).flat();
    expect(stillCached.filter((file) => onlyBefore.includes(file))).toEqual([]);
  });
});
