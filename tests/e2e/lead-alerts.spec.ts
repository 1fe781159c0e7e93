/**
 * Lead alerts (issue 21): a digger sets Instant alerts for a category on /account, a client
 * with a confirmed e-mail posts a gig in it, and the alert reaches the digger's outbox
 * (/dev/mail, local mode) within moments, with the link to the gig.
 */
import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { DEMO, outboxOf, signIn } from "./helpers.ts";

const CATEGORY = "Home Improvement";

test("a digger's Instant alert for a category reaches the outbox when a client posts a gig in it", async ({ page, browser }) => {
  await signIn(page, DEMO.digger, DEMO.password, "/account");
  const card = page.locator("[data-slot=card]").filter({ has: page.getByRole("heading", { name: "Lead alerts" }) });
  expect(await axeViolations(page)).toEqual([]);
  await card.getByRole("radio", { name: /^Instant/ }).check();
  await card.getByRole("checkbox", { name: CATEGORY, exact: true }).check();
  await card.getByLabel("Keywords").fill("");
  await card.getByLabel("Location").fill("");
  await card.getByLabel("Maximum lead price").fill("");
  await card.getByRole("button", { name: "Save Alert Preferences" }).click();
  await expect(page.getByText("Alert preferences saved")).toBeVisible();
  const bell = page.getByRole("button", { name: /^Notifications/ });
  const unreadBefore = unreadIn((await bell.getAttribute("aria-label")) ?? "");
  // Opened once before the alert: the list it loaded must not keep the count from moving on.
  await bell.click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
  await page.keyboard.press("Escape");

  // The client (demo client, e-mail confirmed: the gig is published at once) posts in that category.
  const title = `Retile a bathroom floor ${randomUUID().slice(0, 6)}`;
  const client = await newPage(browser);
  await signIn(client, DEMO.client, DEMO.password, "/post-gig");
  await client.getByLabel("Project Title").fill(title);
  await client.getByLabel("Project Description").fill("Take up the old vinyl and lay about 60 square feet of porcelain tile, including the underlayment.");
  await client.getByLabel("Location").fill("Portland, OR");
  await client.getByLabel("Project Timeline").fill("Next month");
  await client.getByLabel("Category").selectOption({ label: CATEGORY });
  await client.getByLabel("Minimum Budget ($)").fill("2000");
  await client.getByLabel(/I agree to the/).check();
  await client.getByRole("button", { name: "Post Gig" }).click();
  await expect(client.getByText("Gig posted successfully!")).toBeVisible();

  // The job queue sends it in the background: the outbox shows it once it is there.
  // Other demo diggers work in this category too: theirs are their own.
  const mail = await newPage(browser);
  const alert = mail.getByRole("listitem").filter({ hasText: `New lead: ${title}` }).filter({ hasText: `To ${DEMO.digger}` });
  await expect(async () => {
    await mail.goto(outboxOf(DEMO.digger));
    await expect(alert).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });

  // The digger's page, loaded before the alert, counts it after an in-app click (no reload).
  await page.getByRole("banner").getByRole("link", { name: "How It Works" }).click();
  await expect(page).toHaveURL("/how-it-works");
  await expect.poll(async () => unreadIn((await bell.getAttribute("aria-label")) ?? "")).toBeGreaterThan(unreadBefore);
  await bell.click();
  await expect(page.getByRole("dialog", { name: "Notifications" }).getByRole("link", { name: `New lead: ${title}` })).toBeVisible();
  await page.keyboard.press("Escape");

  await expect(alert).toContainText(`Category: ${CATEGORY}`);
  await expect(alert).toContainText("Spots left:");
  await alert.getByRole("link", { name: /\/gig\// }).click();
  await expect(mail.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // The bell has it too, linking to the gig.
  await page.reload();
  await page.getByRole("button", { name: /^Notifications, \d+ unread$/ }).click();
  const entry = page.getByRole("dialog", { name: "Notifications" }).getByRole("link", { name: `New lead: ${title}` });
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page).toHaveURL(/\/gig\/[0-9a-f-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
});

/** The count in the bell's accessible name ("Notifications, 3 unread"; 0 without one). */
function unreadIn(label: string): number {
  return Number(/, (\d+)\+? unread$/.exec(label)?.[1] ?? 0);
}
