/**
 * The operator console's frame (issue 22): the demo operator reaches it from the header (and
 * from the phone's Menu), its left-hand menu leads to every section, it has no accessibility
 * violations and does not scroll sideways at 375 or 1280 px; anyone else gets the 404 page.
 */
import { expect, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { DEMO, signIn } from "./helpers.ts";

const OPERATOR = "operator@example.com";

for (const width of [375, 1280]) {
  test(`the demo operator opens the console from the header at ${width} px, and it reads well`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, OPERATOR, DEMO.password, "/");
    if (width < 768) await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
    await page.getByRole("banner").getByRole("link", { name: "Operator console" }).click();
    await expect(page).toHaveURL("/ops/verification");
    const menu = page.getByRole("navigation", { name: "Operator console" });
    for (const section of ["Verification queue", "Users", "Gigs", "Reviews", "Payments", "Audit log"]) await expect(menu.getByRole("link", { name: section })).toBeVisible();
    await expect(page.getByText("In production the console opens only with two-factor authentication on.")).toBeVisible();

    await menu.getByRole("link", { name: "Audit log" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
    await page.getByLabel("Action").selectOption({ label: "Suspend an account" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/action=user\.suspend/);
    // The sign-in's toast fades in and out over the page: axe reads the page once it has gone.
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test("a consumer who types /ops gets the 404 page and no console link", async ({ page }) => {
  await signIn(page, DEMO.client, DEMO.password, "/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Operator console" })).toHaveCount(0);
  const response = await page.goto("/ops/audit");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Operator console" })).toHaveCount(0);
});
