import type { Page } from "@playwright/test";
import { makeImage } from "../support/images.ts";
import { expect, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { openMyNewProfile, startDiggerRegistration } from "./helpers.ts";

/** Public pages beyond the marketing ones (tests/e2e/public-pages.spec.ts covers those). */
async function publicPages(page: Page): Promise<string[]> {
  await page.goto("/browse-gigs");
  const gig = await page.getByRole("list", { name: "Open gigs" }).getByRole("link").first().getAttribute("href");
  await page.goto("/browse-diggers");
  const digger = await page.locator('main a[href^="/digger/"]').first().getAttribute("href");
  return ["/browse-gigs", "/browse-diggers", gig!, digger!, "/auth", "/auth?type=digger", "/auth?tab=signup", "/contact", "/no-such-page"];
}

test("no accessibility violations on the browse, gig, digger, sign-in and 404 pages", async ({ page }) => {
  test.setTimeout(180_000);
  for (const path of await publicPages(page)) {
    await page.goto(path);
    expect(await axeViolations(page), path).toEqual([]);
  }
});

for (const width of [375, 1280]) {
  test(`no page scrolls sideways at ${width} px`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 800 });
    for (const path of await publicPages(page)) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
}

test("the keyboard reaches the main content first, with a visible focus", async ({ page }) => {
  await page.goto("/browse-gigs");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
});

test("no accessibility violations with the phone menu open, with JavaScript and without", async ({ page, browser }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Axe needs scripts, so the page without JavaScript is the server's page with its scripts held back.
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const noScript = await context.newPage();
  await noScript.route(/\.js$/, () => {});
  await noScript.goto("/", { waitUntil: "domcontentloaded" });
  await noScript.getByRole("banner").locator("summary").click();
  await expect(noScript.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  expect(await axeViolations(noScript)).toEqual([]);
  await context.close();
});

test("no accessibility violations on a profile with its work photos' lightbox open, nor on the registration with chosen photos", async ({ page }) => {
  await startDiggerRegistration(page);
  const files = await Promise.all([40, 50].map(async (width, i) => ({ name: `work-${i + 1}.png`, mimeType: "image/png", buffer: await makeImage("png", { width }) })));
  await page.getByLabel("Add Work Photos").setInputFiles(files);
  await expect(page.getByRole("list", { name: "Chosen work photos" }).getByRole("img")).toHaveCount(2);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Create Digger Profile" }).click();
  await expect(page.getByText("Profile created successfully!")).toBeVisible();
  await openMyNewProfile(page);
  await page.getByRole("button", { name: "Open photo 1 of 2" }).click();
  await expect(page.getByRole("dialog", { name: "Photo 1 of 2" })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
