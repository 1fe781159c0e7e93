import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { toastSaying } from "./helpers.ts";

/** A fresh client, signed up through the form, on /account. */
async function newAccount(page: Page): Promise<string> {
  const email = `privacy-${randomUUID()}@example.com`;
  await page.goto("/auth?redirect=/account");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByLabel("Full Name").fill("Priya Privacy");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("secret-pass");
  await page.getByLabel("I confirm I am 18 or older").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL("/account");
  return email;
}

test("download my data and switch promotional e-mail on and off (opt-in: off for a new account)", async ({ page }) => {
  const email = await newAccount(page);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download My Data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^digs-and-gigs-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, "utf8")) as { account: { email: string; fullName: string } };
  expect(exported.account).toMatchObject({ email, fullName: "Priya Privacy" });

  const promotional = page.getByRole("checkbox", { name: /^Promotional e-mail/ });
  await expect(promotional).not.toBeChecked();
  await promotional.check();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(page.getByText("Promotional e-mail is on.")).toBeVisible();
  await page.reload();
  await expect(promotional).toBeChecked();
  await promotional.uncheck();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(page.getByText("Promotional e-mail is off. Transactional e-mail still arrives.")).toBeVisible();
});

test("delete my account: the typed e-mail confirms it, then the user is signed out and stays out", async ({ page }) => {
  const email = await newAccount(page);
  const confirm = page.getByLabel("Type your e-mail address to confirm");

  await confirm.fill("someone-else@example.com");
  await page.getByRole("button", { name: "Delete My Account" }).click();
  // The toast says it, and so does the field, beside it.
  await expect(toastSaying(page, "That is not the e-mail address of this account")).toBeVisible();
  await expect(confirm).toHaveAccessibleDescription("That is not the e-mail address of this account");
  await expect(page).toHaveURL("/account");

  await confirm.fill(email);
  await page.getByRole("button", { name: "Delete My Account" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Your account has been deleted. Your personal data will be removed within 30 days.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();

  await page.goto("/account");
  await expect(page).toHaveURL(/\/auth\?redirect=%2Faccount$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("secret-pass");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("This account has been deleted.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});

test("an unsubscribe link that is not genuine changes nothing and says so", async ({ page }) => {
  await page.goto("/unsubscribe?token=someone.forged-signature");
  await expect(page.getByRole("alert")).toHaveText(/This unsubscribe link is not valid/);
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
});
