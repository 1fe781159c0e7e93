/**
 * Playwright's `test`, with every page waiting for hydration after it loads a document
 * (`goto`, `reload`): the root layout sets `<html data-hydrated>` once React has taken over.
 * Acting earlier is a race: a click can submit a form natively, without the busy state or the
 * client-side checks.
 */
import { test as base, type Browser, type Page, type Response } from "@playwright/test";

export { expect } from "@playwright/test";

async function hydrated(page: Page, response: Response | null): Promise<Response | null> {
  if (response?.headers()["content-type"]?.startsWith("text/html")) {
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
  }
  return response;
}

/** Makes `page.goto` and `page.reload` return only once the page they load has hydrated. */
export function waitForHydration(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => hydrated(page, await goto(url, options));
  page.reload = async (options) => hydrated(page, await reload(options));
  return page;
}

/** A page in a context of its own (own cookies), waiting for hydration as `page` does. */
export async function newPage(browser: Browser): Promise<Page> {
  return waitForHydration(await (await browser.newContext()).newPage());
}

export const test = base.extend({
  page: async ({ page }, provide) => {
    await provide(waitForHydration(page));
  },
});

/**
 * Holds every form post to `url` until the returned `release()` is called, so that a test sees
 * a busy state for as long as it needs to: a fixed delay races a slow machine, where the click
 * itself can take longer than the delay.
 */
export async function holdPosts(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    if (route.request().method() === "POST") await released;
    await route.continue();
  });
  return release;
}
