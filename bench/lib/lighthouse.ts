/**
 * Lighthouse (performance and accessibility, its default mobile profile with simulated
 * throttling) against pages of the running server, in the system's headless Chromium.
 * CHROME_PATH (or CHROMIUM_PATH) names the browser; /usr/bin/chromium by default.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { freePort } from "../../tests/support/ports.ts";

export interface LighthouseResult {
  path: string;
  performance: number | null;
  accessibility: number | null;
  metrics: Record<string, number | null>;
  /** Audits that cost performance or accessibility points, for the report. */
  failing: string[];
  /** Lighthouse's opportunities with their estimated savings (what to fix first). */
  opportunities: string[];
  /**
   * What its first paint estimate waited for: the files at render-blocking priority (the page,
   * stylesheets, scripts at High) that had arrived before the paint it saw, which its
   * simulation of the slow network then downloads before painting.
   */
  firstPaintWaitedFor: string[];
}

export function chromePath(): string | null {
  const candidates = [process.env.CHROME_PATH, process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((c): c is string => Boolean(c && existsSync(c))) ?? null;
}

const WARMUP_REQUESTS = 20;

interface NetworkRequest {
  url: string;
  priority: string;
  resourceType: string;
  transferSize: number;
  networkEndTime: number;
}

export async function runLighthouse(baseUrl: string, paths: string[], runs = 1): Promise<LighthouseResult[]> {
  const chrome = chromePath();
  if (!chrome) throw new Error("no Chromium found: set CHROME_PATH");
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), "dg-bench-chrome-"));
  const browser = spawn(
    chrome,
    ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, "about:blank"],
    { stdio: "ignore" },
  );
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
      } catch {
        if (Date.now() > deadline) throw new Error("Chromium did not start");
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const results: LighthouseResult[] = [];
    for (const pagePath of paths) {
      // A server that has answered the page before, as a running one has: the first answers of
      // a fresh process (code not yet compiled by V8) would be timed as the page's first byte.
      for (let i = 0; i < WARMUP_REQUESTS; i++) await (await fetch(baseUrl + pagePath, { headers: { accept: "text/html" } })).text();
      const scores: LighthouseResult[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(baseUrl + pagePath, {
          port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse gave no result for ${pagePath}`);
        const score = (id: string) => {
          const s = lhr.categories[id]?.score;
          return typeof s === "number" ? Math.round(s * 100) : null;
        };
        const metric = (id: string) => {
          const v = lhr.audits[id]?.numericValue;
          return typeof v === "number" ? Math.round(v) : null;
        };
        const failing = Object.values(lhr.categories)
          .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]))
          .filter((a) => a && typeof a.score === "number" && a.score < 0.9)
          .map((a) => `${a!.id}${a!.displayValue ? ` (${a!.displayValue})` : ""}`);
        const opportunities = Object.values(lhr.audits)
          .filter((a) => a.details?.type === "opportunity" && typeof a.score === "number" && a.score < 0.9)
          .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
        const observedPaint = (lhr.audits.metrics?.details as { items?: Array<Record<string, number>> } | undefined)?.items?.[0]?.observedFirstContentfulPaint ?? 0;
        const requests = (lhr.audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined)?.items ?? [];
        const firstPaintWaitedFor = requests
          .filter((r) => (r.priority === "VeryHigh" || (r.priority === "High" && r.resourceType === "Script")) && r.networkEndTime <= observedPaint)
          .map((r) => `${new URL(r.url).pathname.replace(/^\/assets\//, "")} ${(r.transferSize / 1024).toFixed(1)} KB`);
        scores.push({
          opportunities,
          firstPaintWaitedFor,
          path: pagePath,
          performance: score("performance"),
          accessibility: score("accessibility"),
          metrics: {
            firstContentfulPaintMs: metric("first-contentful-paint"),
            largestContentfulPaintMs: metric("largest-contentful-paint"),
            totalBlockingTimeMs: metric("total-blocking-time"),
            cumulativeLayoutShift: lhr.audits["cumulative-layout-shift"]?.numericValue ?? null,
            speedIndexMs: metric("speed-index"),
          },
          failing,
        });
      }
      // The median run by performance score.
      scores.sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
      results.push(scores[Math.floor(scores.length / 2)]!);
    }
    return results;
  } finally {
    // Chromium may still write its profile while it exits (slowly, on a loaded machine).
    const exited = new Promise((resolve) => browser.once("exit", resolve));
    browser.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    // A loaded machine may outlast the retries: a leftover profile in the temp dir is no failure of the run.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch (error) {
      console.warn(`left ${profile}: ${String(error)}`);
    }
  }
}
