import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, newPage, test } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";
import { demoDiggers } from "../../server/db/seed/demo-data.ts";

async function signedIn(browser: Browser, email: string, redirect: string): Promise<Page> {
  const page = await newPage(browser);
  await signIn(page, email, DEMO.password, redirect);
  return page;
}

test("a digger buys the client's lead: the client's bell shows who bought it, links to the profile, and Mark all as read clears the count", async ({ browser }) => {
  const title = `Hang three shelves ${randomUUID().slice(0, 6)}`;
  const client = await signedIn(browser, DEMO.consumer, "/post-gig");
  await client.getByLabel("Project Title").fill(title);
  await client.getByLabel("Project Description").fill("Three floating oak shelves on a brick wall in the living room, anchors included.");
  await client.getByLabel("Location").fill("Tucson, AZ");
  await client.getByLabel("Project Timeline").fill("This week");
  await client.getByLabel("Category").selectOption({ index: 1 });
  await client.getByLabel("Minimum Budget ($)").fill("2000");
  await client.getByLabel("Contact Preferences").fill("Text me");
  await client.getByLabel(/I agree to the/).check();
  await client.getByRole("button", { name: "Post Gig" }).click();
  await expect(client.getByText("Gig posted successfully!")).toBeVisible();

  const digger = await signedIn(browser, DEMO.digger, "/my-leads");
  await digger.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await digger.getByRole("link", { name: title }).click();
  await digger.getByRole("button", { name: "Purchase Lead" }).click();
  await expect(digger).toHaveURL(/\/checkout\//);
  await digger.getByRole("button", { name: "Pay $50.00" }).click();
  await expect(digger.getByText("Payment successful! You can now access the client contact information.")).toBeVisible();

  // The client's top bar counts it; the bell lists it, linking to the digger's profile.
  await client.goto("/my-gigs");
  const bell = client.getByRole("button", { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const panel = client.getByRole("dialog", { name: "Notifications" });
  const entry = panel.getByRole("link", { name: `${demoDiggers[0]!.handle} bought your lead for "${title}"` });
  await expect(entry).toBeVisible();
  await expect(entry).toHaveAttribute("href", /^\/digger\/[0-9a-f-]{36}$/);

  await panel.getByRole("button", { name: "Mark all as read" }).click();
  await expect(client.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await expect(client.getByTestId("unread-count")).toHaveCount(0);
  // Still listed, now read; it leads to the profile.
  await entry.click();
  await expect(client).toHaveURL(/\/digger\/[0-9a-f-]{36}$/);
  await expect(client.getByRole("heading", { level: 1, name: demoDiggers[0]!.handle })).toBeVisible();
});
