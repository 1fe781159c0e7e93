#!/usr/bin/env node
/**
 * `npm run test:hard`: the long tests (tests/hard, tests/README.md: the database stopped and
 * started under load, a stalling SMTP server, 60 s of load on PostgreSQL, three servers as one
 * site, the hold attack replayed). Builds the app
 * into BUILD_DIR (default build-hard, so a build/ in use is left alone), then runs Vitest's
 * `hard` project. Ends with one summary line, "N passed, N failed, N skipped", and writes the
 * same counts to test-results/summary-hard.json for .ci/run's grand total.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { finish, noteUnnamedFailure, resultsDir, runShown } from "./summary.mjs";

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env, BUILD_DIR: process.env.BUILD_DIR || "build-hard" };
const report = path.join(resultsDir, "hard.json");
mkdirSync(resultsDir, { recursive: true });
rmSync(report, { force: true });
rmSync(path.join(resultsDir, "summary-hard.json"), { force: true });

const npx = (args) => spawnSync("npx", ["--no-install", ...args], { cwd: root, stdio: "inherit", env }).status === 0;

console.log(`\n=== build (${env.BUILD_DIR})`);
if (!npx(["react-router", "build"])) {
  console.log("\nbuild failed, so the tests did not start.");
  finish("hard", { passed: 0, failed: 1, skipped: 0 });
}

console.log("\n=== hard tests");
const { ok, tail } = await runShown("npx", ["--no-install", "vitest", "run", "--project", "hard", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], { cwd: root, env });
let passed = 0;
let failed = 1;
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, "utf8"));
  passed = results.numPassedTests;
  failed = results.numFailedTests + (ok || results.numFailedTests > 0 ? 0 : 1);
  if (!ok && results.numFailedTests === 0) noteUnnamedFailure("hard", tail);
  skipped = results.numPendingTests + results.numTodoTests;
} else {
  noteUnnamedFailure("hard", tail);
}
finish("hard", { passed, failed, skipped });
