/**
 * Issue 23: below 768 px the top bar is one row, its links and actions behind a Menu button (a
 * disclosure that Escape or a click outside closes); at 1280 px they are in the bar itself.
 * Checked for a visitor and a signed-in client, with JavaScript and without it (a native
 * <details> disclosure until React takes over).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 740 } });
  return waitForHydration(await context.newPage());
}

test("at 375 px the header is one row, and Menu holds the same links and actions", async ({ browser }) => {
  const page = await pageAt(browser, 375);
  await signIn(page, DEMO.client, DEMO.password, "/");
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

test("at 375 px Escape closes the menu and gives the focus back to Menu; a click outside closes it too", async ({ browser }) => {
  const page = await pageAt(browser, 375);
  await page.goto("/");
  const header = page.getByRole("banner");
  const menu = header.getByRole("button", { name: "Menu" });
  const signIn = header.getByRole("link", { name: "Sign In" });
  // Escape from inside the menu: closed, and the focus is on the button again.
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await signIn.focus();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(signIn).toBeHidden();
  await expect(menu).toBeFocused();
  // Escape right after opening it (the focus still on the button).
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  // A click outside the menu (on the page's heading) closes it; the address stays.
  await menu.click();
  await expect(signIn).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(signIn).toBeHidden();
  await expect(page).toHaveURL("/");
  // A click inside it does not.
  await menu.click();
  await header.locator("#site-menu").click({ position: { x: 5, y: 5 } });
  await expect(menu).toHaveAttribute("aria-expanded", "true");
});

test("at 1280 px the links are in the bar and there is no Menu button", async ({ browser }) => {
  const page = await pageAt(browser, 1280);
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "How It Works" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(header.getByRole("button", { name: "Menu" })).toBeHidden();
});

/** A page of its own without JavaScript, signed in as `email` when given (the cookies of a sign-in with it). */
async function noScriptPageAt(browser: Browser, width: number, email?: string): Promise<Page> {
  let storageState: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;
  if (email) {
    const scripted = await browser.newContext();
    await signIn(waitForHydration(await scripted.newPage()), email, DEMO.password, "/");
    storageState = await scripted.storageState();
    await scripted.close();
  }
  const context = await browser.newContext({ viewport: { width, height: 740 }, javaScriptEnabled: false, storageState });
  return context.newPage();
}

test("without JavaScript, at 375 px Menu is a native disclosure with the same links and actions", async ({ browser }) => {
  const page = await noScriptPageAt(browser, 375, DEMO.client);
  await page.goto("/");
  const header = page.getByRole("banner");
  expect((await header.boundingBox())!.height).toBeLessThan(72);
  const menu = header.locator("details");
  const toggle = menu.locator("summary");
  await expect(toggle).toHaveAccessibleName("Menu");
  await expect(toggle).toBeVisible();
  await expect(header.getByRole("link", { name: "My Gigs" })).toBeHidden();
  await toggle.click();
  await expect(menu).toHaveAttribute("open", "");
  for (const name of ["How It Works", "Contact", "My Gigs", "Account", "Post a Gig"]) {
    await expect(header.getByRole("link", { name })).toBeVisible();
  }
  await expect(header.getByRole("button", { name: "Sign Out" })).toBeVisible();
  // A link loads the next page, whose menu is closed.
  await header.getByRole("link", { name: "My Gigs" }).click();
  await expect(page).toHaveURL("/my-gigs");
  await expect(header.locator("details")).not.toHaveAttribute("open");
  await expect(header.getByRole("link", { name: "Account" })).toBeHidden();
  // Closing it again with the same button.
  await toggle.click();
  await expect(header.getByRole("link", { name: "Account" })).toBeVisible();
  await toggle.click();
  await expect(header.getByRole("link", { name: "Account" })).toBeHidden();
});

test("without JavaScript, at 1280 px the links are in the bar and there is no Menu", async ({ browser }) => {
  const page = await noScriptPageAt(browser, 1280);
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "How It Works" }).first()).toBeVisible();
  await expect(header.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
  await expect(header.locator("summary")).toBeHidden();
});

test("a menu opened before the page hydrated stays open once React takes over", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  // Hold the scripts so the page stays server-rendered while the menu is opened.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await page.getByRole("banner").locator("summary").click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  release();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  await menu.click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeHidden();
});
