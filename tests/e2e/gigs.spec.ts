import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { DEMO, signIn, toastSaying } from "./helpers.ts";

test("a consumer posts a gig, finds it in browse, opens it, and closes and reopens it", async ({ page }) => {
  const title = `Install a garden shed ${randomUUID().slice(0, 6)}`;
  await signIn(page, DEMO.client, DEMO.password, "/post-gig");

  await page.getByLabel("Project Title").fill("Too short");
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(toastSaying(page, "Please accept the Terms of Service to continue")).toBeVisible();
  await expect(page.getByLabel(/I agree to the/)).toHaveAccessibleDescription("Please accept the Terms of Service to continue");
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  // The second answer has come back once the terms box is no longer marked (the title's message
  // was already beside its field after the first): typing earlier would race it.
  await expect(page.getByRole("checkbox", { name: /I agree to the/ })).not.toHaveAttribute("aria-invalid", "true");
  await expect(toastSaying(page, "Title must be at least 10 characters")).toBeVisible();
  await expect(page.getByLabel("Project Title")).toHaveAccessibleDescription("Title must be at least 10 characters");

  await page.getByLabel("Project Title").fill(title);
  const description = "Assemble and install a 10x8 wooden shed kit on an existing concrete base in the back yard.";
  await page.getByLabel("Project Description").fill(description);
  await expect(page.getByText(`${description.length}/2000`)).toBeVisible();
  await page.getByLabel("Location").fill("Portland, OR");
  await page.getByLabel("Project Timeline").fill("Next month");
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel("Minimum Budget ($)").fill("2000");
  await page.getByLabel("Maximum Budget ($)").fill("3500");
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Gig posted successfully!")).toBeVisible();

  await page.goto("/browse-gigs");
  await page.getByLabel("Search gigs").fill(title);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=/);
  await page.getByLabel("Budget").selectOption({ label: "$1,000 - $5,000" });
  await expect(page).toHaveURL(/budget=1k-5k/);
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("$2,000 - $3,500")).toBeVisible();
  await expect(page.getByText("$50.00")).toBeVisible();
  // Their own gig: no purchase button, but what they can do with it (issue 23).
  await expect(page.getByRole("button", { name: "Diggers Only" })).toHaveCount(0);
  await expect(page.getByText("This is your gig")).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit Gig" })).toBeVisible();

  await page.goto("/my-gigs");
  await expect(page.getByRole("heading", { level: 1, name: "My Gigs" })).toBeVisible();
  // The switch is named by its visible label and described by the card's title.
  const status = page.getByRole("listitem").filter({ hasText: title }).getByRole("switch");
  await expect(status).toHaveAccessibleName("Active");
  await expect(status).toHaveAccessibleDescription(title);
  await expect(status).toBeChecked();
  await status.click();
  await expect(page.getByText("Gig closed successfully")).toBeVisible();
  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(page.getByText("No gigs found. Try adjusting your filters.")).toBeVisible();
  await page.goto("/my-gigs");
  await expect(status).toHaveAccessibleName("Closed");
  await status.click();
  await expect(page.getByText("Gig reopened successfully")).toBeVisible();
});

test("visitors and diggers are turned away from posting with the spec's messages", async ({ page }) => {
  await page.goto("/post-gig");
  await expect(page).toHaveURL("/auth?redirect=/post-gig");
  await expect(page.getByText("Please sign in to post a gig")).toBeVisible();
  await signIn(page, DEMO.digger);
  await page.goto("/post-gig");
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Only consumers can post gigs")).toBeVisible();
});

test("an unknown gig sends the visitor to browse with 'Gig not found'", async ({ page }) => {
  await page.goto(`/gig/${randomUUID()}`);
  await expect(page).toHaveURL("/browse-gigs");
  await expect(page.getByText("Gig not found")).toBeVisible();
});

test("the cap chosen on /post-gig shows on the gig's page, and a full lead shows Lead Full, disabled", async ({ page, browser }) => {
  const title = `Hang three doors ${randomUUID().slice(0, 6)}`;
  await signIn(page, DEMO.client, DEMO.password, "/post-gig");
  await expect(page.getByLabel("Maximum diggers")).toHaveValue("3");
  await expect(page.getByText("Fewer diggers means fewer calls for you and a better chance for each digger")).toBeVisible();
  await page.getByLabel("Project Title").fill(title);
  await page.getByLabel("Project Description").fill("Three interior doors to hang in new frames, with hinges and handles supplied by us.");
  await page.getByLabel("Location").fill("Reno, NV");
  await page.getByLabel("Project Timeline").fill("Next week");
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel("Maximum diggers").selectOption("1");
  await page.getByLabel("Minimum Budget ($)").fill("2000");
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Post Gig" }).click();
  await expect(page.getByText("Gig posted successfully!")).toBeVisible();

  // The digger sees the one spot free, buys it through the test checkout.
  const digger = await newPage(browser);
  await signIn(digger, DEMO.digger, DEMO.password, `/browse-gigs?q=${encodeURIComponent(title)}`);
  const card = digger.getByRole("listitem").filter({ hasText: title });
  await expect(card.getByText("0 of 1 spots taken")).toBeVisible();
  await digger.getByRole("link", { name: title }).click();
  const purchase = digger.getByRole("complementary", { name: "Purchase Lead" });
  await expect(purchase.getByText("0 of 1 spots taken")).toBeVisible();
  await purchase.getByRole("button", { name: "Purchase Lead" }).click();
  await expect(digger).toHaveURL(/\/checkout\//);
  await digger.getByRole("button", { name: "Pay $50.00" }).click();
  await expect(digger.getByText("You have purchased this lead.")).toBeVisible();

  // Now the lead is full: the client sees the spots taken; anyone else is told it is full; and
  // Browse Gigs no longer lists it.
  const gigPath = new URL(digger.url()).pathname;
  await page.goto(gigPath);
  const own = page.getByRole("complementary", { name: "Purchase Lead" });
  await expect(own.getByText("1 of 1 spots taken")).toBeVisible();
  await expect(own.getByText("This is your gig")).toBeVisible();
  const visitor = await newPage(browser);
  await visitor.goto(gigPath);
  const full = visitor.getByRole("complementary", { name: "Purchase Lead" });
  await expect(full.getByText("1 of 1 spots taken")).toBeVisible();
  await expect(full.getByText("This lead is full")).toBeVisible();
  await expect(full.getByRole("button", { name: "Lead Full" })).toBeDisabled();
  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(page.getByText("No gigs found. Try adjusting your filters.")).toBeVisible();
});
