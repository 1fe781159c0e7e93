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
 * dialog and on the lead's card; the thread's menu offers the same entry.
 */
test("a hired digger reviews the client from the lead's card and sees the waiting line", async ({ browser }) => {
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
});
