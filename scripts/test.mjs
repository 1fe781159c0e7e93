#!/usr/bin/env node
/**
 * `npm test`: lint, typecheck, build, then every test suite: unit, integration on PGlite,
 * integration again on PostgreSQL when TEST_DATABASE_URL is set, and the browser tests.
 * Ends with one summary line, "N passed, N failed, N skipped", and writes the same counts
 * to test-results/summary-test.json for .ci/run's grand total.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { finish, noteUnnamedFailure, resultsDir as results, runShown } from "./summary.mjs";

const root = path.resolve(import.meta.dirname, "..");
mkdirSync(results, { recursive: true });
rmSync(path.join(results, "summary-test.json"), { force: true });
rmSync(path.join(results, "unnamed-failures.txt"), { force: true });

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}
const npx = (label, args, env) => run(label, "npx", ["--no-install", ...args], env);

for (const [label, args] of [
  ["lint", ["eslint", "--max-warnings=0", "."]],
  // Unused exports (decision 0069): knip.jsonc.
  ["lint", ["knip"]],
  ["typecheck", ["react-router", "typegen"]],
  ["typecheck", ["tsc", "--noEmit"]],
  ["build", ["react-router", "build"]],
]) {
  if (!npx(label, args)) {
    console.log(`\n${label} failed, so the tests did not start.`);
    finish("test", { passed: 0, failed: 1, skipped: 0 });
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
/** A suite's run, its output shown as it comes and its tail kept for a failure no test names. */
async function shown(label, args, env = {}) {
  console.log(`\n=== ${label}`);
  return runShown("npx", ["--no-install", ...args], { cwd: root, env: { ...process.env, ...env } });
}

async function vitest(label, project, file, env) {
  const out = path.join(results, file);
  rmSync(out, { force: true });
  const { ok, tail } = await shown(label, ["vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], env);
  const report = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : undefined;
  if (!ok && !(report?.numFailedTests > 0)) noteUnnamedFailure(file.replace(/\.json$/, ""), tail);
  if (!report) return void (totals.failed += 1);
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests + (ok || report.numFailedTests > 0 ? 0 : 1);
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

await vitest("unit tests", "unit", "unit.json");
await vitest("integration tests on PGlite", "integration", "integration-pglite.json", { TEST_DATABASE_URL: "" });
if (process.env.TEST_DATABASE_URL) {
  await vitest("integration tests on PostgreSQL", "integration", "integration-postgres.json");
} else {
  console.log("\n(integration tests on PostgreSQL: set TEST_DATABASE_URL to run them; .ci/run does)");
}

const e2eReport = path.join(results, "e2e.json");
rmSync(e2eReport, { force: true });
const { ok: e2eOk, tail: e2eTail } = await shown("browser tests", ["playwright", "test"]);
if (existsSync(e2eReport)) {
  const { stats } = JSON.parse(readFileSync(e2eReport, "utf8"));
  if (!e2eOk && stats.unexpected === 0) noteUnnamedFailure("e2e", e2eTail);
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected + (e2eOk || stats.unexpected > 0 ? 0 : 1);
  totals.skipped += stats.skipped;
} else {
  noteUnnamedFailure("e2e", e2eTail);
  totals.failed += 1;
}

finish("test", totals);
