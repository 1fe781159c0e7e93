#!/usr/bin/env node
/**
 * `npm start`: installs dependencies when they are missing or stale, builds, and serves.
 * The server itself migrates the database and seeds the demo data on start-up.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const at = (file) => path.join(root, file);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Stale: the lock file or a patch of an installed package (patches/, applied by the install's
// postinstall) changed since the last install.
const installed = at("node_modules/.package-lock.json");
const changed = [at("package-lock.json"), ...readdirSync(at("patches")).filter((file) => file.endsWith(".patch")).map((file) => at(`patches/${file}`))];
if (!existsSync(installed) || changed.some((file) => statSync(file).mtimeMs > statSync(installed).mtimeMs)) {
  console.log("Installing dependencies...");
  // Not `npm ci`: see .ci/run (the lock file cannot list other platforms' optional binaries).
  // On the project's node, fetched first when the machine's is older (scripts/install.mjs).
  run(process.execPath, [at("scripts/install.mjs")]);
  // npm leaves its record as it was when nothing was missing: mark this install as the newest.
  const now = new Date();
  utimesSync(installed, now, now);
}
console.log("Building...");
run("npm", ["run", "--silent", "build"]);

await import("./serve.mjs");
