/**
 * The closing line of a test script, "N passed, N failed, N skipped", alone on its line as
 * CI reads it. Each script also writes its counts to test-results/summary-<name>.json so that
 * `.ci/run` can end with one grand total over `npm test` and `npm run test:hard`.
 */
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const resultsDir = path.resolve(import.meta.dirname, "..", "test-results");
const line = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed, ${skipped} skipped`;

/** Prints the closing line, records the counts under `name`, and exits (1 if anything failed). */
export function finish(name, counts) {
  writeFileSync(path.join(resultsDir, `summary-${name}.json`), JSON.stringify(counts));
  console.log(`\n${line(counts)}`);
  process.exit(counts.failed > 0 ? 1 : 0);
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
  console.log(`\nall tests (${process.argv.slice(2).join(" + ")}):\n${line(total)}`);
}
