import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures.ts";
import { outboxOf } from "./helpers.ts";

test("a new client's gig is published once they confirm their e-mail from the link", async ({ page }) => {
  const email = `new-client-${randomUUID()}@example.com`;
  const title = `Hang three interior doors ${randomUUID().slice(0, 6)}`;

  await page.goto("/auth?redirect=/post-gig");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByRole("radio", { name: /^Consumer/ }).click();
  await page.getByLabel("Full Name").fill("Cora Confirm");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("secret-pass");
  await page.getByLabel("I confirm I am 18 or older").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL("/post-gig");

  await page.getByLabel("Project Title").fill(title);
  await page.getByLabel("Project Description").fill("Three pre-hung interior doors to fit in existing openings, with new casing on both sides.");
  await page.getByLabel("Location").fill("Omaha, NE");
  await page.getByLabel("Project Timeline").fill("Next month");
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Gig posted successfully!")).toBeVisible();

  // Saved, but not public until the e-mail is confirmed.
  await page.goto("/my-gigs");
  const card = page.getByRole("listitem").filter({ hasText: title });
  await expect(card.getByText("Confirm your e-mail to publish this gig")).toBeVisible();
  await card.getByRole("button", { name: "Resend confirmation e-mail" }).click();
  await expect(page.getByText("Confirmation e-mail sent. Check your inbox.")).toBeVisible();
  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(page.getByText("No gigs found. Try adjusting your filters.")).toBeVisible();

  // The local outbox shows the e-mail; its link asks for one click.
  await page.goto(outboxOf(email));
  const message = page.getByRole("listitem").filter({ hasText: `To ${email}` }).filter({ hasText: "Confirm your e-mail for Digs & Gigs" });
  await expect(message).toHaveCount(2);
  await message.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/verify-email\?token=/);
  await page.getByRole("button", { name: "Confirm my e-mail" }).click();
  await expect(page).toHaveURL("/my-gigs");
  await expect(page.getByText("E-mail confirmed. Your gigs are now published.")).toBeVisible();
  await expect(page.getByText("Confirm your e-mail to publish this gig")).toHaveCount(0);

  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(page.getByRole("link", { name: title })).toBeVisible();
});
