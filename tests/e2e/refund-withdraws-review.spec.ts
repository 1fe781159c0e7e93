/**
 * Issue 30, finding 4, in the browser: a sham client reviews, then hires, the digger who bought
 * their $50 gig, then approves a 'Posted by Mistake' refund. The public profile is 'New' again
 * with no review; the digger sees the review on their own profile marked 'Withdrawn: the lead
 * was refunded'; the client's Diggers dialog no longer offers Mark as Hired.
 */
import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { buyLead, confirmedNewClient, newDigger, postGig } from "./helpers.ts";

test("a full refund withdraws the sham client's review and hire", async ({ browser }) => {
  test.setTimeout(150_000);
  const { page: digger, handle } = await newDigger(browser);
  const profilePath = new URL(digger.url()).pathname;
  const token = randomUUID().slice(0, 6);
  const client = await newPage(browser);
  await confirmedNewClient(client, `Sham Client ${token}`);
  const title = `Paint the garden fence ${token}`;
  await postGig(client, title, "Sand and paint about 60 feet of wooden garden fence, two coats, white.");

  await buyLead(digger, title);

  // Five stars, then a hire (a review written before the hire is shown at once, issue 51).
  await client.goto("/my-gigs");
  await client.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "Diggers", exact: true }).click();
  const row = client.getByRole("dialog", { name: `Diggers who bought "${title}"` }).getByRole("listitem").filter({ hasText: handle });
  await row.getByRole("button", { name: "Leave a Review" }).click();
  const form = client.getByRole("dialog", { name: `Review ${handle}` });
  await form.getByRole("radiogroup", { name: "Rating" }).getByRole("radio", { name: "5 stars" }).check();
  const text = `The very best digger on the site, hire them now ${token}.`;
  await form.getByLabel("Your review").fill(text);
  await form.getByRole("button", { name: "Submit Review" }).click();
  await expect(client.getByText("Review posted. Thank you!")).toBeVisible();
  await expect(form).toBeHidden();
  await row.getByRole("button", { name: "Mark as Hired" }).click();
  await expect(row.getByRole("button", { name: "Remove Hire" })).toBeVisible();
  const visitor = await newPage(browser);
  await visitor.goto(profilePath);
  await expect(visitor.getByText("(1 review)")).toBeVisible();

  // The digger reports 'Posted by Mistake'; the sham client approves the full refund.
  await digger.goto("/my-leads");
  await digger.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "Report Issue" }).click();
  const report = digger.getByRole("dialog");
  await report.getByLabel("Issue Type").selectOption({ label: "Posted by Mistake" });
  await report.getByLabel("Description").fill("The client says the gig was posted by mistake.");
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expect(report).toBeHidden();
  await client.goto("/my-gigs");
  await client.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "View Issues" }).click();
  const issue = client.getByRole("dialog", { name: `Lead Issues for "${title}"` }).getByRole("listitem");
  await issue.getByRole("button", { name: "Approve Refund" }).click();
  await issue.getByRole("button", { name: "Yes, refund $50.00" }).click();
  await expect(client.getByText("Issue approved")).toBeVisible();

  // The public profile: 'New', no review, no hire.
  await visitor.reload();
  await expect(visitor.getByText("No reviews yet.")).toBeVisible();
  await expect(visitor.getByText(text)).toHaveCount(0);
  // The digger's own view: the review, marked.
  await digger.goto(profilePath);
  const own = digger.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: text });
  await expect(own.getByText("Withdrawn: the lead was refunded")).toBeVisible();
  await expect(own.getByText("Verified lead")).toHaveCount(0);
  await expect(own.getByRole("button", { name: "Reply" })).toHaveCount(0);
  // It counts for nothing there either.
  await expect(digger.getByText("No reviews yet.")).toBeVisible();
  expect(await axeViolations(digger, { include: "#reviews" })).toEqual([]);
  await digger.setViewportSize({ width: 375, height: 900 });
  await own.scrollIntoViewIfNeeded();
  await digger.screenshot({ path: "test-results/withdrawn-review-375.png", fullPage: true });

  // The client's Diggers dialog: no Mark as Hired, no review to edit.
  await client.goto("/my-gigs");
  await client.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "Diggers", exact: true }).click();
  const after = client.getByRole("dialog", { name: `Diggers who bought "${title}"` }).getByRole("listitem").filter({ hasText: handle });
  await expect(after.getByRole("button", { name: "Remove Hire" })).toBeVisible();
  await expect(after.getByRole("button", { name: "Edit Review" })).toHaveCount(0);
  await after.getByRole("button", { name: "Remove Hire" }).click();
  await expect(client.getByText("Hire removed")).toBeVisible();
  await expect(after.getByRole("button", { name: "Mark as Hired" })).toHaveCount(0);
});
