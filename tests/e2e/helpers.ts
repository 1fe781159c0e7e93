import { expect, type Page } from "@playwright/test";

export const DEMO = { consumer: "consumer@example.com", digger: "digger@example.com", password: "digsandgigs-demo" };

/** Signs in through the real form and waits until the app has landed on `redirect`. */
export async function signIn(page: Page, email: string, password = DEMO.password, redirect = "/") {
  await page.goto(`/auth?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(redirect);
}
