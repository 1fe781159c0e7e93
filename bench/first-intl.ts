/**
 * What a page's first use of `Intl` costs in the browser (decision 0061): in fresh pages, the
 * first of five kinds of use, then each of the others, in milliseconds.
 *
 *   npx tsx bench/first-intl.ts [rounds, default 3]
 */
import { chromium } from "playwright-core";
import { chromePath } from "./lib/lighthouse.ts";

const uses: Record<string, string> = {
  currency: `new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(12)`,
  count: `(1234).toLocaleString("en-US")`,
  relative: `new Intl.RelativeTimeFormat("en-US", { numeric: "always" }).format(-3, "day")`,
  date: `new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date())`,
};
const rounds = Number(process.argv[2] ?? "3");
const browser = await chromium.launch({ executablePath: chromePath() ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (let round = 0; round < rounds; round++) {
    for (const [first, expression] of Object.entries(uses)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto("data:text/html,<p>x</p>");
      // A string, not a function: tsx would add its own helpers to a function's source.
      const timed = Object.values(uses).map((use) => `(() => { const t = performance.now(); ${use}; return performance.now() - t; })()`);
      const times = (await page.evaluate(`[(() => { const t = performance.now(); ${expression}; return performance.now() - t; })(), ${timed.join(", ")}]`)) as number[];
      console.log(`round ${round + 1}, ${first} first: ${times[0]!.toFixed(1)} ms; then ${Object.keys(uses).map((name, i) => `${name} ${times[i + 1]!.toFixed(1)}`).join(", ")}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
}
