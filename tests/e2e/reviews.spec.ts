import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { DEMO, newDigger, postGig, signIn } from "./helpers.ts";

const dialogViolations = (page: Page) => axeViolations(page, { include: '[role="dialog"]' });

/** The handle on the first card of Browse Talent, Highest Rated. */
async function topRated(page: Page): Promise<string> {
  await page.goto("/browse-diggers?sort=rating");
  return (await page.getByRole("list", { name: "Diggers" }).getByRole("heading").first().textContent())?.trim() ?? "";
}

test("a client hires and reviews the digger who bought the lead; the digger replies; the profile and Highest Rated change", async ({ browser }) => {
  const { page: digger, handle } = await newDigger(browser);
  const profileUrl = digger.url();
  // Not reviewed yet: 'New', and not the top of Highest Rated.
  await expect(digger.getByText("New", { exact: true })).toBeVisible();
  await expect(digger.getByText("No reviews yet.")).toBeVisible();
  const visitor = await newPage(browser);
  expect(await topRated(visitor)).not.toBe(handle);

  // The client posts a gig; the digger buys it through the test checkout.
  const title = `Retile the shower wall ${randomUUID().slice(0, 6)}`;
  const client = await newPage(browser);
  await signIn(client, DEMO.client, DEMO.password, "/my-gigs");
  await postGig(client, title, "The shower wall tiles are cracked and loose; retile about 40 square feet with new backer board.");

  await digger.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await digger.getByRole("link", { name: title }).click();
  await digger.getByRole("button", { name: "Purchase Lead" }).click();
  await digger.getByRole("button", { name: "Pay $50.00" }).click();
  await expect(digger.getByText("Payment successful! You can now access the client contact information.")).toBeVisible();

  // My Gigs: Diggers opens who bought the lead.
  await client.goto("/my-gigs");
  const card = client.getByRole("listitem").filter({ hasText: title });
  await card.getByRole("button", { name: "Diggers" }).click();
  const dialog = client.getByRole("dialog", { name: `Diggers who bought "${title}"` });
  const row = dialog.getByRole("listitem").filter({ hasText: handle });
  await expect(row.getByRole("link", { name: handle })).toHaveAttribute("href", new URL(profileUrl).pathname);
  await expect(row.getByText("New", { exact: true })).toBeVisible();
  await expect(row.getByText(/^Bought [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  expect(await dialogViolations(client)).toEqual([]);

  await row.getByRole("button", { name: "Mark as Hired" }).click();
  await expect(client.getByText("Marked as hired")).toBeVisible();
  await expect(row.getByRole("button", { name: "Remove Hire" })).toBeVisible();

  // Leave a Review: the messages, then a five-star review.
  await row.getByRole("button", { name: "Leave a Review" }).click();
  const review = client.getByRole("dialog", { name: `Review ${handle}` });
  expect(await dialogViolations(client)).toEqual([]);
  await review.getByRole("button", { name: "Submit Review" }).click();
  await expect(client.getByText("Please choose a rating")).toBeVisible();
  await review.getByRole("radiogroup", { name: "Rating" }).getByRole("radio", { name: "5 stars" }).check();
  await review.getByLabel("Your review").fill("Too short");
  await expect(review.getByText("9/2000 characters (at least 20)")).toBeVisible();
  await review.getByRole("button", { name: "Submit Review" }).click();
  await expect(client.getByText("Review must be at least 20 characters")).toBeVisible();
  const text = "Retiled the whole wall in a day, neat grout lines and spotless cleanup.";
  await review.getByLabel("Your review").fill(text);
  await review.getByRole("button", { name: "Submit Review" }).click();
  await expect(client.getByText("Review posted. Thank you!")).toBeVisible();
  await expect(review).toBeHidden();
  await expect(row.getByRole("button", { name: "Edit Review" })).toBeVisible();
  await expect(row.getByRole("img", { name: "Rated 5 out of 5" })).toBeVisible();

  // The profile: count, average, the review as 'Casey C.', Verified lead, Hired.
  await visitor.goto(new URL(profileUrl).pathname);
  await expect(visitor.getByText("(1 review)")).toBeVisible();
  const reviews = visitor.getByRole("list", { name: "Reviews" });
  const item = reviews.getByRole("listitem").filter({ hasText: text });
  await expect(item.getByText("Casey C.")).toBeVisible();
  await expect(item.getByText("Verified lead")).toBeVisible();
  await expect(item.getByText("Hired", { exact: true })).toBeVisible();
  await expect(item.getByRole("img", { name: "Rated 5 out of 5" })).toBeVisible();
  await expect(visitor.getByText("Casey Consumer")).toHaveCount(0);
  await expect(visitor.getByText(DEMO.client)).toHaveCount(0);
  await expect(item.getByRole("button", { name: "Reply" })).toHaveCount(0);
  expect(await axeViolations(visitor, { include: "#reviews" })).toEqual([]);

  // The digger replies once, on their own profile.
  await digger.goto(new URL(profileUrl).pathname);
  const own = digger.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: text });
  await own.getByRole("button", { name: "Reply" }).click();
  await own.getByLabel("Your reply").fill("Thank you, Casey! Enjoy the new shower.");
  await own.getByRole("button", { name: "Post Reply" }).click();
  await expect(digger.getByText("Reply posted")).toBeVisible();
  await expect(own.getByText(`Response from ${handle}`)).toBeVisible();
  await expect(own.getByRole("button", { name: "Reply" })).toHaveCount(0);
  await visitor.reload();
  await expect(item.getByText(`Response from ${handle}`)).toBeVisible();
  await expect(item.getByText("Thank you, Casey! Enjoy the new shower.")).toBeVisible();

  // Highest Rated now starts with this digger (5.0; the demo diggers' ratings are all below).
  expect(await topRated(visitor)).toBe(handle);
  await expect(visitor.getByRole("list", { name: "Diggers" }).getByRole("listitem").first().getByText("(1 review)")).toBeVisible();
});
