/**
 * Verifying a phone number in the browser (issue 49): a client saves a number on /account, lands
 * on the code step, sees 'Send a new code' count down, reads the code at /dev/sms (local mode's
 * outbox of texts), gets a wrong try refused, and the right code brings them back to /account
 * with 'Phone verified'. SHOTS_DIR=<dir> also keeps screenshots of the code step at 375 and
 * 1280 px.
 */
import { randomInt } from "node:crypto";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { confirmedNewClient, toastSaying } from "./helpers.ts";

const shots = process.env.SHOTS_DIR;
async function shoot(page: Page, name: string) {
  if (!shots) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a client verifies the number to reuse: /account, the code step, the code from /dev/sms", async ({ page }) => {
  await confirmedNewClient(page, "Vera Verify");
  const line = String(randomInt(1000, 9999));
  await page.goto("/account");
  await page.getByLabel("Phone number").fill(`(201) 555-${line}`);
  await page.getByRole("button", { name: "Save", exact: true }).click();

  await expect(page).toHaveURL("/verify-phone?next=/account");
  await expect(page.getByText(`We sent a 6-digit code to +1 201 555 ${line}`)).toBeVisible();
  const resend = page.getByRole("button", { name: /^Send a new code in \d+ s$/ });
  await expect(resend).toBeDisabled();
  // The countdown runs in the browser.
  const first = await resend.textContent();
  await expect(resend).not.toHaveText(first!, { timeout: 5_000 });
  await shoot(page, "code-step");

  await page.goto("/dev/sms");
  const text = page.getByRole("listitem").filter({ hasText: `To +1201555${line}` }).first();
  const body = (await text.locator("p").textContent())!;
  const code = /^(\d{6}) is your Digs & Gigs code/.exec(body)![1]!;
  await shoot(page, "dev-sms");

  // Until the code is entered, /account says the number is not verified and offers to verify it.
  await page.goto("/account");
  const unverified = page.locator("[data-slot=card]").filter({ has: page.getByText("Phone number", { exact: true }) });
  await expect(unverified.getByText("Phone not verified")).toBeVisible();
  await expect(unverified.getByRole("button", { name: "Verify this number" })).toBeVisible();
  if (shots) await unverified.screenshot({ path: path.join(shots, "account-phone-card-unverified-1280.png") });

  await page.goto("/verify-phone?next=/account");
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
  await page.getByLabel("Code").fill(wrong);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(toastSaying(page, "That code is not right. 4 tries left.")).toBeVisible();
  await shoot(page, "code-step-wrong");

  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL("/account");
  await expect(toastSaying(page, "Phone verified")).toBeVisible();
  const card = page.locator("[data-slot=card]").filter({ has: page.getByText("Phone number", { exact: true }) });
  await expect(card.getByText("Phone verified")).toBeVisible();
  await expect(card.getByRole("button", { name: "Verify this number" })).toHaveCount(0);
  await expect(toastSaying(page, "Phone verified")).toHaveCount(0, { timeout: 15_000 });
  await card.scrollIntoViewIfNeeded();
  if (shots) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await card.screenshot({ path: path.join(shots, `account-phone-card-${width}.png`) });
    }
  }
});
