/**
 * The console's Gigs and Reviews sections (issue 22): the demo operator hides a client's gig
 * with a reason and it leaves Browse Gigs; a signed-in user reports a review on a digger's
 * profile and the operator hides it; the Audit log lists both.
 */
import { randomUUID } from "node:crypto";
import { expect, newPage, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { confirmedNewClient, DEMO, postGig, signedInPage, toastSaying } from "./helpers.ts";

const OPERATOR = "operator@example.com";

test("the demo operator hides a gig and a reported review; the Audit log lists both", async ({ browser }) => {
  test.setTimeout(150_000);
  const token = randomUUID().slice(0, 8);
  const client = await newPage(browser);
  await confirmedNewClient(client, `Hana Hidden ${token}`);
  const title = `Moderation test shelves ${token}`;
  await postGig(client, title);
  const visitor = await newPage(browser);
  await visitor.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(visitor.getByRole("link", { name: title })).toBeVisible();

  const operator = await signedInPage(browser, OPERATOR, "/ops/gigs");
  await operator.getByLabel("Title, description or location").fill(title);
  await operator.getByRole("button", { name: "Search" }).click();
  const row = operator.getByRole("list", { name: "Gigs" }).getByRole("listitem").filter({ hasText: title });
  await row.getByRole("button", { name: "Hide" }).click();
  await expect(toastSaying(operator, "Please give a reason")).toBeVisible();
  const reason = `Asks for payment off the site ${token}`;
  await row.getByLabel("Reason").fill(reason);
  await row.getByRole("button", { name: "Hide" }).click();
  await expect(toastSaying(operator, "Gig hidden. Its owner is told why.")).toBeVisible();
  await expect(row.getByText(`Reason: ${reason}`)).toBeVisible();
  await visitor.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  await expect(visitor.getByRole("link", { name: title })).toHaveCount(0);
  await client.goto("/my-gigs");
  await expect(client.getByText(`Reason: ${reason}`)).toBeVisible();

  // A signed-in user reports a five-star review on the top demo digger's profile: hiding it can
  // only lower that digger's rating (other tests expect a new 5.0 digger above every demo one).
  // Demo diggers have many reviews; a digger made by a test running beside this one has one.
  const reporter = await signedInPage(browser, DEMO.client, "/browse-diggers?sort=rating");
  await reporter.getByRole("list", { name: "Diggers" }).locator(":scope > li").filter({ hasText: / reviews\)/ }).first().locator('a[href^="/digger/"]').first().click();
  await expect(reporter).toHaveURL(/\/digger\//);
  const review = reporter
    .getByRole("list", { name: "Reviews" })
    .getByRole("listitem")
    .filter({ has: reporter.getByRole("img", { name: "Rated 5 out of 5" }) })
    .filter({ hasNotText: "Review reported" })
    .first();
  const body = (await review.locator("p.whitespace-pre-line").first().textContent())!.trim();
  // Report is a link (to this page with the review's form open); with JavaScript it opens the form in place.
  await review.getByRole("link", { name: "Report" }).click();
  await expect(reporter).not.toHaveURL(/report=/);
  await review.getByLabel("Reason").fill(`Mentions a different business entirely ${token}`);
  await review.getByRole("button", { name: "Report Review" }).click();
  await expect(toastSaying(reporter, "Review reported")).toBeVisible();
  expect(await axeViolations(reporter)).toEqual([]);

  await operator.getByRole("navigation", { name: "Operator console" }).getByRole("link", { name: "Reviews" }).click();
  // The review's own item (its reasons are a list inside it): the one with the actions.
  const reported = operator
    .getByRole("list", { name: "Reported reviews" })
    .getByRole("listitem")
    .filter({ hasText: `Mentions a different business entirely ${token}` })
    .filter({ has: operator.getByRole("button", { name: "Hide" }) });
  await expect(reported).toContainText(body.slice(0, 40));
  await reported.getByRole("button", { name: "Hide" }).click();
  await expect(toastSaying(operator, "Review hidden. It no longer counts in the digger's rating.")).toBeVisible();
  await reporter.reload();
  await expect(reporter.getByText(body, { exact: true })).toHaveCount(0);

  await operator.getByRole("navigation", { name: "Operator console" }).getByRole("link", { name: "Audit log" }).click();
  const log = operator.getByRole("list", { name: "Audit log entries" });
  // The Action filter is the only thing labelled "Action", and its options never repeat an entry's words.
  await expect(operator.getByLabel("Action")).toHaveCount(1);
  await expect(operator.getByRole("option", { name: "Hid gig" })).toHaveCount(0);
  // The hidden gig's entry links to the gig by its title, and to its owner by name.
  const hidden = log.getByRole("listitem").filter({ hasText: `Reason: ${reason}` });
  await expect(hidden.getByRole("link", { name: title })).toHaveAttribute("href", /^\/gig\//);
  await expect(hidden.getByRole("link", { name: `Hana Hidden ${token}` })).toHaveAttribute("href", /^\/ops\/users\//);
  await expect(log.getByRole("listitem").filter({ hasText: "Hid gig" }).filter({ hasText: `Reason: ${reason}` })).toHaveCount(1);
  await expect(log.getByRole("listitem").filter({ hasText: "Hid review" }).first()).toBeVisible();
});
