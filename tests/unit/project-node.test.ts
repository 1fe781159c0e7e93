/**
 * The node the project runs on (decision 0067): npm's `node` package, pinned in package.json.
 * npm's scripts find it first on PATH, so `npm test` itself runs on it; `npm start` serves on it
 * even when the machine's own, older node started the script before the install; the server
 * refuses an older one with one line; a missing runtime is an error, never a fallback.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runsOn } from "#server/runtime.ts";

const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const pinned: string = manifest.dependencies.node;
const evalModule = (cwd: string, code: string) => spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd, encoding: "utf8" });

describe("the project's node", () => {
  it("is pinned to one version, and these tests run on it", () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(process.versions.node).toBe(pinned);
  });

  it("is installed at node_modules/.bin/node, where the start script finds it", () => {
    expect(execFileSync(path.join(root, "node_modules/.bin/node"), ["--version"]).toString().trim()).toBe(`v${pinned}`);
    const found = evalModule(root, 'import { projectNode } from "./scripts/project-node.mjs"; process.stdout.write(projectNode())');
    expect(found.stdout).toBe(path.join(root, "node_modules/.bin/node"));
  });

  it("is what `npm start` and `npm run serve` start the server on, whichever node ran them", () => {
    const serve = readFileSync(path.join(root, "scripts/serve.mjs"), "utf8");
    expect(serve).toContain('from "./project-node.mjs"');
    expect(serve).toMatch(/spawn\(projectNode\(\), /);
  });

  it("missing, is an error that says how to install it, not the machine's node", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "dg-project-node-"));
    mkdirSync(path.join(copy, "scripts"));
    copyFileSync(path.join(root, "scripts/project-node.mjs"), path.join(copy, "scripts/project-node.mjs"));
    writeFileSync(path.join(copy, "package.json"), JSON.stringify({ engines: manifest.engines, dependencies: { node: pinned } }));
    const result = evalModule(copy, 'import { projectNode } from "./scripts/project-node.mjs"; projectNode()');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`Node.js ${pinned}, which the project runs on, is not installed at node_modules/.bin/node: run npm start`);
  });
});

describe("the server's floor", () => {
  it("is package.json's engines, which the pinned node meets", () => {
    expect(manifest.engines.node).toBe(">=22.19.0");
    expect(runsOn(pinned, "22.19.0")).toBe(true);
  });

  it("compares versions part by part", () => {
    expect(runsOn("22.19.0", "22.19.0")).toBe(true);
    expect(runsOn("v22.23.3", "22.19.0")).toBe(true);
    expect(runsOn("24.0.0", "22.19.0")).toBe(true);
    expect(runsOn("22.11.9", "22.19.0")).toBe(false);
    expect(runsOn("20.20.2", "22.19.0")).toBe(false);
    expect(runsOn("22.9.0", "22.19.0")).toBe(false);
  });

  it("stops the server on an older node with one line saying how to get the right one", () => {
    const machineNode = spawnSync("sh", ["-c", "PATH=/usr/local/bin:/usr/bin:/bin command -v node"], { encoding: "utf8" }).stdout.trim();
    const version = machineNode ? execFileSync(machineNode, ["--version"]).toString().trim() : "";
    // The check itself, on whatever older node this machine has (Debian's 20 here and in CI).
    if (!machineNode || runsOn(version, "22.19.0")) {
      const result = spawnSync(process.execPath, ["--import", "tsx", "-e", 'Object.defineProperty(process.versions, "node", { value: "20.1.0" }); await import("./server/runtime.ts")'], { cwd: root, encoding: "utf8" });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toMatch(/^Digs & Gigs needs Node\.js 22\.12\.0 or newer, not v\S+: start it with npm start/);
      return;
    }
    const result = spawnSync(machineNode, ["--import", "tsx", "server/runtime.ts"], { cwd: root, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`Digs & Gigs needs Node.js 22.19.0 or newer, not ${version}: start it with npm start`);
  });
});
