/**
 * The installable app (issue 34): the manifest and the service worker are served and valid,
 * Chromium finds nothing missing for installing it (DevTools' installability errors; Lighthouse
 * 12 has no PWA category), and a navigation without network shows the offline page while
 * nothing private is ever stored. The rest of the browser tests block service workers
 * (playwright.config.ts); these allow them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";

test.use({ serviceWorkers: "allow" });

const OFFLINE_TEXT = "You are offline. Check your connection and try again.";

/** Waits until the page's service worker is active and controls it (it claims open pages). */
async function controlledByWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
}

/** Every address kept in the page's caches. */
const cachedAddresses = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
    }
    return urls;
  });

/** Goes to `path` as a click would, without the fixture's wait for hydration (the offline page has no app). */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => window.location.assign(to), path);
  await page.waitForURL(path);
}

test("the manifest, its icons and the worker are served, and Chromium reports nothing against installing", async ({
  playwright,
  launchOptions,
  baseURL,
  request,
}) => {
  const manifestResponse = await request.get("/manifest.webmanifest");
  expect(manifestResponse.status()).toBe(200);
  expect(manifestResponse.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await manifestResponse.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: Array<{ src: string; sizes: string; purpose: string }>;
  };
  expect(manifest).toMatchObject({ name: "Digs & Gigs", start_url: "/", display: "standalone" });
  expect(manifest.short_name.length).toBeGreaterThan(0);
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  for (const size of ["192x192", "512x512"]) {
    for (const purpose of ["any", "maskable"]) expect(manifest.icons).toContainEqual(expect.objectContaining({ sizes: size, purpose }));
  }
  for (const icon of manifest.icons) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    const body = await png.body();
    // A PNG's width and height are in its header: the size the manifest says.
    expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
  }

  const worker = await request.get("/sw.js");
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toContain("javascript");
  expect(worker.headers()["cache-control"]).toBe("no-cache");
  const script = await worker.text();
  expect(script).toContain("/offline.html");
  expect(script).toMatch(/"\/assets\/[^"]+\.js"/);

  // Chromium refuses to install from an incognito profile, which every Playwright context is
  // but a persistent one: the check runs in a profile of its own.
  const profile = await mkdtemp(path.join(tmpdir(), "dg-install-"));
  const installable = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, serviceWorkers: "allow" });
  try {
    const page = waitForHydration(installable.pages()[0] ?? (await installable.newPage()));
    await page.goto("/");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    await controlledByWorker(page);
    const cdp = await installable.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await installable.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test("without network a page shows the offline page, and Retry loads it once the network is back", async ({ page, context }) => {
  await page.goto("/");
  await controlledByWorker(page);

  await context.setOffline(true);
  await navigate(page, "/browse-gigs");
  await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();
  const retry = page.getByRole("button", { name: "Retry" });
  await retry.click();
  await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();

  await context.setOffline(false);
  await retry.click();
  await expect(page.getByRole("heading", { name: "Browse Gigs" })).toBeVisible();
  await expect(page.getByText(OFFLINE_TEXT)).toHaveCount(0);
});

test("nothing private is cached: signed-in pages and their data stay on the network", async ({ page, context, request }) => {
  await signIn(page, DEMO.client, DEMO.password, "/account");
  await controlledByWorker(page);
  // A client-side navigation fetches the loader's data (`.data`); a reload fetches the page.
  await page.getByRole("link", { name: "My Gigs" }).first().click();
  await expect(page).toHaveURL("/my-gigs");
  await page.reload();

  // Only the build's files the worker lists: no page, no `.data`, no /api, no upload.
  const precacheList = await (await request.get("/sw.js")).text();
  const cached = await cachedAddresses(page);
  expect(cached).toContain("/offline.html");
  expect(cached.filter((url) => !precacheList.includes(`"${url}"`))).toEqual([]);
  expect(cached.filter((url) => !/^\/(assets\/[^/?]+|[\w.-]+\.(png|svg|webmanifest|html|js))$/.test(url))).toEqual([]);

  await context.setOffline(true);
  await navigate(page, "/account");
  await expect(page.getByText(OFFLINE_TEXT)).toBeVisible();
  await expect(page.getByText(DEMO.client)).toHaveCount(0);
});
