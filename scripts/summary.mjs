/**
 * The closing line of a test script, "N passed, N failed, N skipped", alone on its line as
 * CI reads it. Each script also writes its counts to test-results/summary-<name>.json so that
 * `.ci/run` can end with one grand total over `npm test` and `npm run test:hard`.
 */
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";

export const resultsDir = path.resolve(import.meta.dirname, "..", "test-results");
const line = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed, ${skipped} skipped`;

/** Prints the closing line, records the counts under `name`, and exits (1 if anything failed). */
export function finish(name, counts) {
  writeFileSync(path.join(resultsDir, `summary-${name}.json`), JSON.stringify(counts));
  console.log(`\n${line(counts)}`);
  process.exit(counts.failed > 0 ? 1 : 0);
}

const unnamedFile = path.join(resultsDir, "unnamed-failures.txt");

/**
 * Runs a command with its output shown as it comes and resolves to whether it exited 0. A run
 * that fails with no failed test in its report (an unhandled error, a hook that threw, a crashed
 * worker or web server) names nothing in the JSON reports, so the end of its output is kept in
 * test-results/unnamed-failures.txt for the closing lines: `noteUnnamedFailure`.
 */
export function runShown(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["inherit", "pipe", "pipe"] });
    const tail = [];
    const keep = (chunk, stream) => {
      stream.write(chunk);
      tail.push(...stripVTControlCharacters(chunk.toString()).split("\n"));
      if (tail.length > 400) tail.splice(0, tail.length - 400);
    };
    child.stdout.on("data", (chunk) => keep(chunk, process.stdout));
    child.stderr.on("data", (chunk) => keep(chunk, process.stderr));
    child.on("close", (code) => resolve({ ok: code === 0, tail }));
  });
}

/** Keeps why `label` failed when its report names no failed test: the lines around the
 * runner's error sections, else the last lines of its output. */
export function noteUnnamedFailure(label, tail) {
  const marks = tail.flatMap((text, index) => (/unhandled|error|failed|timed out|exited/i.test(text) ? [index] : []));
  const picked = marks.length > 0 ? marks.slice(-20).map((index) => tail[index]) : tail.slice(-20);
  const lines = picked.map((text) => text.trim()).filter(Boolean).map((text) => `      ${text.slice(0, 300)}`);
  appendFileSync(unnamedFile, `[${label}] failed with no failed test in its report:\n${lines.join("\n")}\n`);
}

/** The first lines of a failure's message, without colours, indented under the test's name:
 * CI shows only the log's tail, so the tail has to say why, not only what. */
function excerpt(message) {
  if (!message) return "";
  const lines = stripVTControlCharacters(String(message)).split("\n").filter((text) => text.trim() !== "");
  return lines.slice(0, 12).map((text) => `\n      ${text.slice(0, 300)}`).join("");
}

/**
 * The failed tests named in the JSON reports of test-results/ (vitest's and Playwright's), each
 * with the start of its error, so that the last lines of a CI log say which tests failed and why.
 */
function failedTests() {
  const names = [];
  const relative = (file) => path.relative(path.dirname(resultsDir), file ?? "");
  // Playwright's report nests suites (files, describe blocks) around specs.
  const walkSuites = (label, suites, file) => {
    for (const suite of suites ?? []) {
      for (const spec of suite.specs ?? []) {
        const failed = spec.tests?.find((test) => test.status === "unexpected");
        if (!failed) continue;
        // A timeout's first error says only "Test timeout of 90000ms exceeded."; the next one
        // names the step that was waiting and its call log: each error's start is shown.
        const errors = failed.results?.flatMap((result) => (result.errors?.length ? result.errors.map((error) => error.message) : [result.error?.message])).filter(Boolean) ?? [];
        names.push(`[${label}] ${spec.file ?? suite.file ?? file} > ${spec.title}${errors.slice(0, 3).map(excerpt).join("")}`);
      }
      walkSuites(label, suite.suites, suite.file ?? file);
    }
  };
  for (const entry of readdirSync(resultsDir)) {
    if (!entry.endsWith(".json") || entry.startsWith("summary-")) continue;
    let report;
    try {
      report = JSON.parse(readFileSync(path.join(resultsDir, entry), "utf8"));
    } catch {
      continue;
    }
    const label = entry.replace(/\.json$/, "");
    for (const file of report.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
      for (const test of failed) names.push(`[${label}] ${relative(file.name)} > ${test.fullName}${excerpt(test.failureMessages?.[0])}`);
      if (file.status === "failed" && failed.length === 0) names.push(`[${label}] ${relative(file.name)}: ${String(file.message ?? "failed").split("\n")[0]}`);
    }
    walkSuites(label, report.suites, "");
  }
  return names;
}

/** `node scripts/summary.mjs NAME...`: prints the total of the named scripts' counts; a
 * script that wrote none (it crashed or never ran) counts as one failure. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const name of process.argv.slice(2)) {
    const file = path.join(resultsDir, `summary-${name}.json`);
    const counts = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { passed: 0, failed: 1, skipped: 0 };
    for (const key of Object.keys(total)) total[key] += counts[key];
  }
  const failed = failedTests();
  if (failed.length > 0) console.log(`\nfailed:\n${failed.map((name) => `  ${name}`).join("\n")}`);
  if (existsSync(unnamedFile)) console.log(`\n${readFileSync(unnamedFile, "utf8")}`);
  console.log(`\nall tests (${process.argv.slice(2).join(" + ")}):\n${line(total)}`);
}
