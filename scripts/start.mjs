#!/usr/bin/env node
/**
 * `npm start`: installs dependencies when they are missing or stale, builds, and serves.
 * The server itself migrates the database and seeds the demo data on start-up.
 */
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const at = (file) => path.join(root, file);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = at("node_modules/.package-lock.json");
if (!existsSync(installed) || statSync(at("package-lock.json")).mtimeMs > statSync(installed).mtimeMs) {
  console.log("Installing dependencies...");
  // Not `npm ci`: see .ci/run (the lock file cannot list other platforms' optional binaries).
  // On the project's node, fetched first when the machine's is older (scripts/install.mjs).
  run(process.execPath, [at("scripts/install.mjs")]);
}
console.log("Building...");
run("npm", ["run", "--silent", "build"]);

await import("./serve.mjs");
