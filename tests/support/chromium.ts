/**
 * Finds a Chromium for the browser tests: CHROMIUM_PATH, then Debian's headless shell, then
 * Debian's and other usual locations, then a browser that Playwright installed itself. Fails
 * with what to install.
 *
 * The headless shell first: it is the browser Playwright itself runs headless, and on a two-core
 * machine it makes a context, loads a page and hydrates it about three times as fast as the
 * full Chromium in its new headless mode (decision 0091), which is most of the suite's time.
 */
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

export function findChromium({ full = false }: { full?: boolean } = {}): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    // What the shell lacks (a granted notification permission in a service worker): the
    // specs tagged @full-chromium (playwright.config.ts) run in the full browser.
    full ? undefined : "/usr/bin/chromium-headless-shell",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright has no browser of its own here.
  }
  throw new Error(
    "No Chromium found for the browser tests. Install Debian's chromium and its headless shell (`apt-get install chromium chromium-headless-shell`), " +
      "or set CHROMIUM_PATH to a Chromium or Chrome executable.",
  );
}
