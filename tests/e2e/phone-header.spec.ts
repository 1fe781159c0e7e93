/**
 * Issue 23: below 768 px the top bar is one row, its links and actions behind a Menu button (a
 * disclosure); at 1280 px they are in the bar itself. Checked for a visitor and a signed-in client.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 740 } });
  return waitForHydration(await context.newPage());
}

test("at 375 px the header is one row, and Menu holds the same links and actions", async ({ browser }) => {
  const page = await pageAt(browser, 375);
  await signIn(page, DEMO.consumer, DEMO.password, "/");
  const header = page.getByRole("banner");
  // One row: no taller than its tallest control and padding.
  const box = await header.boundingBox();
  expect(box!.height).toBeLessThan(72);
  await expect(header.getByRole("link", { name: "My Gigs" })).toHaveCount(0);
  const menu = header.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  for (const name of ["How It Works", "Contact", "My Gigs", "Account", "Post a Gig"]) {
    await expect(header.getByRole("link", { name })).toBeVisible();
  }
  await expect(header.getByRole("button", { name: "Sign Out" })).toBeVisible();
  // Following a link closes the menu.
  await header.getByRole("link", { name: "My Gigs" }).click();
  await expect(page).toHaveURL("/my-gigs");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(header.getByRole("link", { name: "Account" })).toHaveCount(0);
});

test("at 1280 px the links are in the bar and there is no Menu button", async ({ browser }) => {
  const page = await pageAt(browser, 1280);
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "How It Works" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(header.getByRole("button", { name: "Menu" })).toBeHidden();
});
