#!/usr/bin/env node
/**
 * `npm install`, run on the project's own node (decision 0067): npm checks every package's
 * `engines` against the node that runs it, and the machine's may be older than the project's
 * floor (Debian's Node 20), which makes a newcomer's first install print warnings for the
 * project and for pg-boss. So when the machine's node is older and node_modules/.bin/node is not
 * there yet, the pinned runtime is fetched first (`npm pack` of the platform's package, from the
 * same registry, checks no engines), and the install runs on it. Used by `npm start` and `.ci/run`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installedNode, nodeFloor, pinnedNode, versionAtLeast } from "./project-node.mjs";

const root = path.resolve(import.meta.dirname, "..");

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return result;
}

/** npm's own script, to run it on another node: npm names it in npm_execpath, else PATH's npm. */
function npmCli() {
  if (process.env.npm_execpath?.endsWith(".js")) return process.env.npm_execpath;
  const which = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" });
  return realpathSync(which.stdout.trim());
}

/** The pinned node, unpacked from its platform's package into a temporary folder. */
function fetchRuntime() {
  const platform = `node-${process.platform}-${process.arch}`;
  const dir = mkdtempSync(path.join(tmpdir(), "dg-node-"));
  console.log(`Fetching Node.js ${pinnedNode} (${platform}), which the project runs on...`);
  run("npm", ["pack", "--silent", "--pack-destination", dir, `${platform}@${pinnedNode}`], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = path.join(dir, `${platform}-${pinnedNode}.tgz`);
  mkdirSync(path.join(dir, "unpacked"));
  run("tar", ["-xzf", tarball, "-C", path.join(dir, "unpacked")]);
  return { node: path.join(dir, "unpacked/package/bin/node"), dir };
}

const args = ["install", "--no-audit", "--no-fund", ...process.argv.slice(2)];
if (versionAtLeast(process.versions.node, nodeFloor)) {
  run("npm", args);
} else {
  const runtime = existsSync(installedNode) ? { node: installedNode } : fetchRuntime();
  // Its folder first on PATH, so that install scripts' `node` and `npm` run on it too.
  const PATH = `${path.dirname(runtime.node)}${path.delimiter}${process.env.PATH ?? ""}`;
  run(runtime.node, [npmCli(), ...args], { env: { ...process.env, PATH } });
  if (runtime.dir) rmSync(runtime.dir, { recursive: true, force: true });
}
