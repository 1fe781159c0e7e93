/**
 * Quotes (issue 33) in the browser: two diggers buy a lead and each sends a quote in their
 * thread; the client opens Compare Quotes from My Gigs, sees both side by side with the lowest
 * marked, accepts one; the chosen digger sees 'Accepted', the other 'Not chosen' and an e-mail;
 * the client is offered to close the gig as filled. The quote card sits between the messages sent
 * before and after it, and Compare Quotes shows a quote sent while it is open, without a reload.
 * Screenshots at 375 and 1280 px.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { axeViolations } from "./axe.ts";
import { expect, newPage, test } from "./fixtures.ts";
import { buyLead, confirmedNewClient, DEMO, myGigCard, newDigger, outboxOf, postGig, signedInPage, toastSaying } from "./helpers.ts";

async function sendMessage(page: Page, text: string) {
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("log").getByText(text)).toBeVisible();
}

/** From My Leads to the lead's thread, then Send a Quote at a fixed price (a message first when `hello`). */
async function sendFixedQuote(digger: Page, title: string, amount: string, included: string, hello?: string): Promise<string> {
  await digger.goto("/my-leads");
  await digger.getByRole("listitem").filter({ hasText: title }).getByRole("link", { name: "Message" }).click();
  await expect(digger).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  if (hello) await sendMessage(digger, hello);
  // The composer's '+' sheet (issue 47): Send a Quote, its form with one submit, 'Send'.
  await digger.getByRole("button", { name: "More actions" }).click();
  const sheet = digger.getByRole("dialog", { name: "More actions" });
  await sheet.getByRole("button", { name: "Send a Quote" }).click();
  const form = digger.getByRole("dialog", { name: "Send a Quote" }).getByRole("form", { name: "Send a Quote" });
  // Every field it writes in has a visible label of its own, the line items' too (issue 47);
  // rows left blank are dropped.
  await form.getByRole("button", { name: "Add line item" }).click();
  await form.getByRole("button", { name: "Add line item" }).click();
  await expect(form.getByLabel("Item 1 description")).toBeVisible();
  await expect(form.getByLabel("Item 2 Amount ($)")).toBeVisible();
  const fields = await form.locator("input:visible:not([type=radio]):not([type=checkbox]), textarea:visible").all();
  expect(fields.length).toBeGreaterThanOrEqual(6);
  for (const field of fields) await expect(form.locator(`label[for="${await field.getAttribute("id")}"]`)).toBeVisible();
  // Checked in the browser with the server's schema: nothing said about what is included.
  await form.getByLabel("Price ($)").fill(amount);
  await expect(form.getByRole("button", { name: "Send", exact: true })).toHaveCount(1);
  await form.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastSaying(digger, "Please say what the price includes")).toBeVisible();
  await form.getByLabel("What is included").fill(included);
  await form.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastSaying(digger, "Quote sent")).toBeVisible();
  await expect(digger.getByRole("dialog")).toHaveCount(0);
  await expect(digger.getByTestId("quote-card")).toContainText(included);
  return digger.url();
}

test("two diggers quote; the client compares them, accepts the lowest, and closes the gig as filled; each digger learns the outcome", async ({ browser }, testInfo) => {
  // Three accounts, a gig posted, two leads bought and quoted: 20 s alone, 44 s beside another
  // worker here. It failed a CI run on a machine twice as slow (CI printed only its name; most
  // likely the 90 s timeout, as the Browse Gigs list test's there).
  test.slow();
  const title = `Rebuild a garden wall ${randomUUID().slice(0, 6)}`;
  const client = await newPage(browser);
  await confirmedNewClient(client, "Quinn Quotes");
  await postGig(client, title);

  const chosen = await signedInPage(browser, DEMO.digger, "/my-leads");
  await buyLead(chosen, title);
  const chosenThread = await sendFixedQuote(chosen, title, "1,200", "Stone, mortar and two days of labour", "Hello Quinn, here is my price.");
  await sendMessage(chosen, "Happy to start next week.");
  // The card between the message sent before it and the one sent after it, in the log's order.
  const log = chosen.getByRole("log");
  const order = await log.locator(":scope > ol > li").evaluateAll((items) =>
    items.map((item) => (item.querySelector("[data-testid=quote-card]") ? "quote" : (item.textContent ?? "").includes("Hello Quinn") ? "before" : (item.textContent ?? "").includes("next week") ? "after" : "other")),
  );
  expect(order).toEqual(["before", "quote", "after"]);
  const other = await newDigger(browser);
  await buyLead(other.page, title);

  // Compare Quotes open with one quote: the other digger's quote appears without a reload.
  await (await myGigCard(client, title)).getByRole("link", { name: "Compare Quotes (1)" }).click();
  await expect(client).toHaveURL(/\/my-gigs\/[0-9a-f-]{36}\/quotes$/);
  const table = client.getByRole("table", { name: "Quotes side by side" });
  await expect(table.getByRole("columnheader")).not.toHaveCount(0);
  await expect(table.getByRole("link", { name: other.handle, exact: true })).toHaveCount(0);
  await client.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const otherThread = await sendFixedQuote(other.page, title, "1500", "Everything, with a one-year guarantee");
  await expect(table.getByRole("link", { name: other.handle, exact: true })).toBeVisible();
  expect(await client.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  // Side by side, the lowest marked in its own column (the first: it came first).
  const priceRow = table.getByRole("row").filter({ has: client.getByRole("rowheader", { name: "Price as quoted" }) });
  await expect(priceRow.getByRole("cell").nth(0)).toContainText("$1,200.00");
  await expect(priceRow.getByRole("cell").nth(0)).toContainText("Lowest price");
  await expect(priceRow.getByRole("cell").nth(1)).toContainText("$1,500.00");
  await expect(priceRow.getByRole("cell").nth(1)).not.toContainText("Lowest price");
  await client.screenshot({ path: testInfo.outputPath("compare-1280.png"), fullPage: true });
  // Each quote's type, its digger's profile and thread (issue 47).
  const typeRow = table.getByRole("row").filter({ has: client.getByRole("rowheader", { name: "Type" }) });
  await expect(typeRow.getByRole("cell")).toHaveText(["Fixed price", "Fixed price"]);
  await expect(table.getByRole("link", { name: other.handle, exact: true })).toHaveAttribute("href", /^\/digger\/[0-9a-f-]{36}$/);
  await expect(table.getByRole("link", { name: `Thread with ${other.handle}` })).toHaveAttribute("href", new URL(otherThread).pathname);
  expect(await axeViolations(client, { seriousOnly: true })).toEqual([]);
  // On a phone the same table, side by side: the row names stay while the quotes scroll sideways.
  await client.setViewportSize({ width: 375, height: 800 });
  await expect(client.getByRole("list", { name: "Quotes" })).toHaveCount(0);
  const rowName = table.getByRole("rowheader", { name: "Price as quoted" });
  const before = (await rowName.boundingBox())!;
  await client.getByRole("region", { name: /^Quotes, scroll sideways/ }).evaluate((region) => (region.scrollLeft = 200));
  expect((await rowName.boundingBox())!.x).toBeCloseTo(before.x, 0);
  await expect(priceRow.getByRole("cell").nth(0)).toBeVisible();
  expect(await axeViolations(client, { seriousOnly: true })).toEqual([]);
  await client.getByRole("region", { name: /^Quotes, scroll sideways/ }).evaluate((region) => (region.scrollLeft = 0));
  await client.screenshot({ path: testInfo.outputPath("compare-375.png"), fullPage: true });
  await client.setViewportSize({ width: 1280, height: 900 });

  await table.getByRole("button", { name: /^Accept .*'s quote$/ }).first().click();
  const dialog = client.getByRole("dialog");
  await expect(dialog.getByRole("heading")).toHaveText(/^Accept .*'s quote of \$1,200\.00\?$/);
  await dialog.getByRole("button", { name: "Accept quote" }).click();
  await expect(toastSaying(client, "Accepted")).toBeVisible();
  await expect(client.getByText(/^You accepted .*'s quote of \$1,200\.00\.$/)).toBeVisible();
  await expect(client.getByRole("button", { name: "Keep it open for more diggers" })).toBeVisible();
  await expect(client.getByRole("link", { name: "Not now" })).toBeVisible();
  await client.screenshot({ path: testInfo.outputPath("accepted-1280.png") });
  await client.getByRole("button", { name: "Close gig as filled" }).click();
  await expect(toastSaying(client, "Gig closed and marked as filled")).toBeVisible();

  await chosen.goto(chosenThread);
  await expect(chosen.getByTestId("quote-card")).toContainText("Accepted");
  await expect(chosen.getByRole("log").getByText("Happy to start next week.")).toBeVisible();
  await chosen.screenshot({ path: testInfo.outputPath("thread-1280.png"), fullPage: true });
  await chosen.setViewportSize({ width: 375, height: 800 });
  await chosen.screenshot({ path: testInfo.outputPath("thread-375.png"), fullPage: true });
  await other.page.goto(otherThread);
  await expect(other.page.getByTestId("quote-card")).toContainText("Not chosen");
  // The other digger's one e-mail about it, without the winner's name or price.
  await other.page.goto(outboxOf(other.email));
  const mail = other.page.getByRole("listitem").filter({ hasText: `The client chose another digger for "${title}"` });
  await expect(mail.first()).toBeVisible();
  await expect(mail.first()).not.toContainText("$1,200.00");
});
