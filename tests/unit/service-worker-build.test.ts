import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { precacheOf, serviceWorkerScript } from "../../pwa/service-worker-build.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A client build's folder with these files. */
function clientBuild(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "dg-client-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const BUILD = {
  "assets/entry-abc.js": "console.log(1)",
  "assets/entry-abc.js.map": "{}",
  "assets/entry-abc.js.br": "brotli",
  "assets/entry-abc.js.gz": "gzip",
  "assets/app-def.css": "body{}",
  ".vite/manifest.json": "{}",
  "README.md": "notes",
  "sw.js": "old worker",
  "offline.html": "<p>offline</p>",
  "manifest.webmanifest": "{}",
};

describe("the service worker's build (pwa/service-worker-build.ts)", () => {
  it("precaches the build's files, never source maps, compressed copies, Vite's manifest, notes or the worker itself", () => {
    expect(precacheOf(clientBuild(BUILD)).urls).toEqual(["/assets/app-def.css", "/assets/entry-abc.js", "/manifest.webmanifest", "/offline.html"]);
  });

  it("names a new version when any precached file changes, and the same for the same files", () => {
    const version = precacheOf(clientBuild(BUILD)).version;
    expect(precacheOf(clientBuild(BUILD)).version).toBe(version);
    expect(precacheOf(clientBuild({ ...BUILD, "offline.html": "<p>changed</p>" })).version).not.toBe(version);
    expect(precacheOf(clientBuild({ ...BUILD, "assets/entry-abc.js.map": "{ }" })).version).toBe(version);
  });

  it("writes plain JavaScript with the list and the version in it", async () => {
    const dir = clientBuild(BUILD);
    const script = await serviceWorkerScript(dir);
    expect(script).toContain('"/assets/entry-abc.js"');
    expect(script).toContain(precacheOf(dir).version);
    expect(script).not.toMatch(/PRECACHE_URLS|BUILD_VERSION|interface /);
    // It parses as a script (a syntax error would throw here; nothing runs).
    expect(() => new Function(script)).not.toThrow();
  });
});
