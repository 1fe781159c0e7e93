/**
 * Finds a Chromium for the browser tests: CHROMIUM_PATH, then Debian's and other usual
 * locations, then a browser that Playwright installed itself. Fails with what to install.
 */
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

export function findChromium(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
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
    "No Chromium found for the browser tests. Install Debian's chromium (`apt-get install chromium`), " +
      "or set CHROMIUM_PATH to a Chromium or Chrome executable.",
  );
}
