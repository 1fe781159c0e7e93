import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { buyLead, confirmedNewClient, DEMO, newDigger, postGig, signIn } from "./helpers.ts";

const dialogViolations = (page: Page) => axeViolations(page, { include: '[role="dialog"]' });
/** Where the Diggers dialog's pictures go when asked (REVIEW_SHOTS=dir), at 375 and 1280 px. */
const SHOTS = process.env.REVIEW_SHOTS;
async function dialogShot(page: Page, width: number, path: string) {
  const size = page.viewportSize()!;
  await page.setViewportSize({ width, height: 900 });
  await page.getByRole("dialog").first().screenshot({ path });
  await page.setViewportSize(size);
}

/**
 * The cards on the first page of Browse Talent, Highest Rated: each card's handle and whether
 * it reads 5.0. Other tests running beside this one may have a new digger at 5.0 for a while
 * (refund-withdraws-review.spec.ts), and 5.0s are ordered by id, so "first" is "in the 5.0 band".
 */
async function highestRated(page: Page): Promise<{ handle: string; fiveStars: boolean }[]> {
  await page.goto("/browse-diggers?sort=rating");
  return page
    .getByRole("list", { name: "Diggers" })
    .locator(":scope > li")
    .evaluateAll((cards) =>
      cards.map((card) => ({
        handle: card.querySelector("h2")?.textContent?.trim() ?? "",
        fiveStars: (card.textContent ?? "").includes("Rated 5.0 out of 5"),
      })),
    );
}

test("a client reviews and hires the digger who bought the lead; the digger replies; the profile and Highest Rated change", async ({ browser }) => {
  // The whole story in one test (three people, a purchase, a hire, a review, a reply): 55 s on
  // an idle machine, and past the default 90 s on a slow machine (a CI check of 2026-11-28 timed out at the
  // reply, with every step before it passed).
  test.slow();
  const { page: digger, handle } = await newDigger(browser);
  const profileUrl = digger.url();
  // Not reviewed yet: 'New', and not the top of Highest Rated.
  await expect(digger.getByText("New", { exact: true })).toBeVisible();
  await expect(digger.getByText("No reviews yet.")).toBeVisible();
  const visitor = await newPage(browser);
  const before = await highestRated(visitor);
  expect(before.length).toBeGreaterThan(0);
  // Not rated yet: first on a fresh database's short list never, and where it is listed, 'New'.
  expect(before[0]!.handle).not.toBe(handle);
  expect(before.filter((card) => card.handle === handle).every((card) => !card.fiveStars)).toBe(true);

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
  await card.getByRole("button", { name: "Diggers", exact: true }).click();
  const dialog = client.getByRole("dialog", { name: `Diggers who bought "${title}"` });
  const row = dialog.getByRole("listitem").filter({ hasText: handle });
  await expect(row.getByRole("link", { name: handle })).toHaveAttribute("href", new URL(profileUrl).pathname);
  await expect(row.getByText("New", { exact: true })).toBeVisible();
  await expect(row.getByText(/^Bought [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  expect(await dialogViolations(client)).toEqual([]);

  // Leave a Review before the hire (issue 51: a review written before the hire stays published): the messages, then a five-star review.
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

  // Then the hire: the review becomes the client's side of the hire's reviews, shown and no longer editable.
  await row.getByRole("button", { name: "Mark as Hired" }).click();
  await expect(client.getByText("Marked as hired")).toBeVisible();
  await expect(row.getByRole("button", { name: "Remove Hire" })).toBeVisible();
  await expect(row.getByText("This review is published and can no longer be changed")).toBeVisible();
  await expect(row.getByRole("button", { name: "Edit Review" })).toHaveCount(0);
  if (SHOTS) for (const width of [375, 1280]) await dialogShot(client, width, `${SHOTS}/diggers-dialog-published-${width}.png`);

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

  // Highest Rated now has this digger in its 5.0 band at the top, above every demo digger
  // (their ratings are all below 5.0).
  const after = await highestRated(visitor);
  const at = after.findIndex((card) => card.handle === handle);
  expect(at).toBeGreaterThanOrEqual(0);
  expect(after.slice(0, at + 1).every((card) => card.fiveStars)).toBe(true);
  await expect(visitor.getByRole("list", { name: "Diggers" }).locator(":scope > li").nth(at).getByText("(1 review)")).toBeVisible();
});

test("a review of a hired digger is blind: the client sees when it will be shown, the profile nothing yet", async ({ browser }) => {
  test.slow();
  const { page: digger, handle } = await newDigger(browser);
  const profilePath = new URL(digger.url()).pathname;
  const token = randomUUID().slice(0, 6);
  const client = await newPage(browser);
  await confirmedNewClient(client, `Bianca Blind ${token}`);
  const title = `Fix the porch steps ${token}`;
  await postGig(client, title, "Two porch steps are rotten; replace the treads and one stringer, then paint to match.");
  await buyLead(digger, title);

  await client.goto("/my-gigs");
  await client.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "Diggers", exact: true }).click();
  const row = client.getByRole("dialog", { name: `Diggers who bought "${title}"` }).getByRole("listitem").filter({ hasText: handle });
  await row.getByRole("button", { name: "Mark as Hired" }).click();
  await expect(row.getByRole("button", { name: "Remove Hire" })).toBeVisible();
  await row.getByRole("button", { name: "Leave a Review" }).click();
  const form = client.getByRole("dialog", { name: `Review ${handle}` });
  await form.getByRole("radiogroup", { name: "Rating" }).getByRole("radio", { name: "4 stars" }).check();
  const text = `New treads, square and solid, painted to match ${token}.`;
  await form.getByLabel("Your review").fill(text);
  await form.getByRole("button", { name: "Submit Review" }).click();
  await expect(client.getByText("Review saved. It will be shown when both of you have reviewed, or when the 14 days end.")).toBeVisible();
  await expect(form).toBeHidden();
  // The waiting line, with the window's end in the client's zone; the review may still be edited.
  await expect(row.getByText(new RegExp(`^Your review will be shown when ${handle} has reviewed you, or on [A-Z][a-z]{2} \\d{1,2}, \\d{4}$`))).toBeVisible();
  await expect(row.getByRole("button", { name: "Edit Review" })).toBeVisible();
  expect(await dialogViolations(client)).toEqual([]);
  if (SHOTS) for (const width of [375, 1280]) await dialogShot(client, width, `${SHOTS}/diggers-dialog-waiting-${width}.png`);

  // Neither the public nor the digger sees it yet.
  const visitor = await newPage(browser);
  await visitor.goto(profilePath);
  await expect(visitor.getByText("No reviews yet.")).toBeVisible();
  await expect(visitor.getByText(text)).toHaveCount(0);
  await digger.goto(profilePath);
  await expect(digger.getByText("No reviews yet.")).toBeVisible();
  await expect(digger.getByText(text)).toHaveCount(0);
});
