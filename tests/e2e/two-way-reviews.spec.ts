import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { buyLead, confirmedNewClient, newDigger, postGig, toastSaying } from "./helpers.ts";

const dialogViolations = (page: Page) => axeViolations(page, { include: '[role="dialog"]' });
const WAITING = /^Your review will be shown when Nadia has reviewed you, or on [A-Z][a-z]{2} \d{1,2}, \d{4}$/;

/**
 * Two-way reviews (issue 51), the digger's side: a client marks a new digger hired in the Diggers
 * dialog of /my-gigs; the digger opens /my-leads, clicks Review Nadia, is told what the form lacks,
 * writes the review with one of the yes/no questions, submits it and sees the waiting line in the
 * dialog and on the lead's card; the thread's menu offers the same entry. Nothing is public yet;
 * the client's review of the digger then publishes both at once: the client's on the digger's
 * profile, the digger's on the client's next gig page with the record's rating line.
 */
test("a hired digger reviews the client and sees the waiting line; the client's review publishes both at once", async ({ browser }) => {
  // Two people, a purchase, a hire and a review.
  test.slow();
  const { page: digger, handle } = await newDigger(browser);
  const title = `Rehang the garage door ${randomUUID().slice(0, 6)}`;
  const client = await newPage(browser);
  await confirmedNewClient(client, "Nadia Reviewed");
  await postGig(client, title, "The garage door came off its track; rehang it and check the springs and rollers.");
  await buyLead(digger, title);

  // Before the hire: no review to write.
  await digger.goto("/my-leads");
  const lead = digger.getByRole("listitem").filter({ hasText: title });
  await expect(lead.getByRole("link", { name: "Message" })).toBeVisible();
  await expect(lead.getByRole("button", { name: "Review Nadia" })).toHaveCount(0);

  // The client marks the digger hired.
  await client.goto("/my-gigs");
  await client.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "Diggers", exact: true }).click();
  const diggers = client.getByRole("dialog", { name: `Diggers who bought "${title}"` });
  await diggers.getByRole("listitem").filter({ hasText: handle }).getByRole("button", { name: "Mark as Hired" }).click();
  await expect(toastSaying(client, "Marked as hired")).toBeVisible();

  // The digger's card now offers Review Nadia.
  await digger.goto("/my-leads");
  await lead.getByRole("button", { name: "Review Nadia" }).click();
  const form = digger.getByRole("dialog", { name: "Review Nadia" });
  await expect(form.getByText(`How was working with Nadia on "${title}"?`, { exact: false })).toBeVisible();
  expect(await dialogViolations(digger)).toEqual([]);

  // Nothing chosen: the rating's message beside it; a short text: its own.
  await form.getByRole("button", { name: "Submit Review" }).click();
  await expect(form.getByText("Please choose a rating")).toBeVisible();
  await form.getByRole("radiogroup", { name: "Rating" }).getByRole("radio", { name: "4 stars" }).check();
  await form.getByLabel("Your review").fill("Short one");
  await form.getByRole("button", { name: "Submit Review" }).click();
  await expect(form.getByText("Please write at least 20 characters")).toBeVisible();

  await form.getByLabel("Your review").fill("Clear brief, quick answers and paid on the day. Would work for her again.");
  const paid = form.getByRole("group", { name: "Paid as agreed" });
  await paid.getByRole("radio", { name: "Yes" }).check();
  await expect(form.getByRole("group", { name: "Easy to reach" }).getByRole("radio", { name: "Yes" })).not.toBeChecked();
  await form.getByRole("button", { name: "Submit Review" }).click();
  await expect(toastSaying(digger, "Review saved. It will be shown when both of you have reviewed, or when the 14 days end.")).toBeVisible();

  // The dialog shows the review as written and the waiting line; so does the card once closed.
  await expect(form.getByRole("status").filter({ hasText: WAITING })).toBeVisible();
  await expect(form.getByRole("region", { name: "Your review" }).getByText("Paid as agreed")).toBeVisible();
  await expect(form.getByRole("button", { name: "Edit review" })).toBeVisible();
  expect(await dialogViolations(digger)).toEqual([]);
  await form.getByRole("button", { name: "Close" }).first().click();
  await expect(lead.getByText(WAITING)).toBeVisible();

  // The thread's menu has the same entry.
  await lead.getByRole("link", { name: "Message" }).click();
  await expect(digger).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await digger.getByText("Thread menu").click();
  await digger.getByRole("button", { name: "Review Nadia" }).click();
  await expect(digger.getByRole("dialog", { name: "Review Nadia" }).getByRole("status")).toHaveText(WAITING);
  const profilePath = await profilePathOf(digger);

  // Blind: the public sees neither review yet.
  const visitor = await newPage(browser);
  await visitor.goto(profilePath);
  await expect(visitor.getByText("No reviews yet.")).toBeVisible();

  // The client reviews the digger: the second review publishes both at once.
  await client.goto("/my-gigs");
  await client.getByRole("listitem").filter({ hasText: title }).getByRole("button", { name: "Diggers", exact: true }).click();
  await diggers.getByRole("listitem").filter({ hasText: handle }).getByRole("button", { name: "Leave a Review" }).click();
  const clientForm = client.getByRole("dialog", { name: `Review ${handle}` });
  await clientForm.getByRole("radiogroup", { name: "Rating" }).getByRole("radio", { name: "5 stars" }).check();
  const clientText = `Door back on its track, springs checked, quiet as new ${title.slice(-6)}.`;
  await clientForm.getByLabel("Your review").fill(clientText);
  await clientForm.getByRole("button", { name: "Submit Review" }).click();
  await expect(toastSaying(client, "Review posted. Both reviews are now shown.")).toBeVisible();

  // Both are shown: the client's on the digger's profile...
  await visitor.goto(profilePath);
  await expect(visitor.getByText(clientText)).toBeVisible();
  // ...and the digger's on the client's next gig page, with the record's rating line.
  const next = `Service the garage door opener ${randomUUID().slice(0, 6)}`;
  await postGig(client, next, "The opener strains and stops halfway; service it and adjust the force settings.");
  await visitor.goto(`/browse-gigs?q=${encodeURIComponent(next)}`);
  await visitor.getByRole("link", { name: next }).click();
  await expect(visitor.getByRole("heading", { level: 1, name: next })).toBeVisible();
  await expect(visitor.getByRole("region", { name: "About this client" }).getByText("4.0 from 1 digger")).toBeVisible();
  const clientReviews = visitor.getByRole("region", { name: "Client reviews" });
  await expect(clientReviews.getByText("Clear brief, quick answers and paid on the day. Would work for her again.")).toBeVisible();
  await expect(clientReviews.getByRole("link", { name: handle })).toBeVisible();
});

/** The digger's own profile's path, from the header's My Profile link (a CSS locator: on a phone the link is in the closed menu). */
async function profilePathOf(page: Page): Promise<string> {
  const href = await page.locator("header a", { hasText: /^My Profile$/ }).first().getAttribute("href");
  expect(href).toMatch(/^\/digger\/[0-9a-f-]{36}$/);
  return href!;
}
