import { expect, test } from "./fixtures.ts";
import { signedInPages, specPages } from "../support/pages.ts";

for (const [path, heading] of specPages) {
  test(`${path} shows its page in the shared layout`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Footer" })).toBeVisible();
  });
}

for (const [path, redirect] of signedInPages) {
  test(`${path} sends a visitor to sign in first`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(redirect);
  });
}

test("an unknown address shows the 404 page, and Return to Home goes home", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Digs & Gigs" })).toBeVisible();
});

test("the app hydrates: header links navigate in the browser without a full reload", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "still here"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "How It Works" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "How It Works" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("still here");
  await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL("/privacy");
});
