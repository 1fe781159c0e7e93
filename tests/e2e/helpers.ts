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

/** Posts a gig through /post-gig ($2,000 minimum: its lead costs $50.00) as the signed-in client. */
export async function postGig(page: Page, title: string, description: string) {
  await page.goto("/post-gig");
  await page.getByLabel("Project Title").fill(title);
  await page.getByLabel("Project Description").fill(description);
  await page.getByLabel("Location").fill("Tucson, AZ");
  await page.getByLabel("Project Timeline").fill("This month");
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel("Minimum Budget ($)").fill("2000");
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(page.getByText("Gig posted successfully!")).toBeVisible();
}
