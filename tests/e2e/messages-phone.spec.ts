/**
 * A chat on a phone (issues 32 and 47): at 375 px and at 1280 px the thread fills the screen
 * under the top bar, the composer (one growing box, the paper-clip, Send) is pinned to the
 * bottom with the newest message in view, also once the screen shrinks as a keyboard opens; the
 * '+' sheet sends a quote with its one Send (`?compose=quote` opens it at once); Report sits in
 * each message's own menu; the Thread menu leads to the profile, the gig and Compare Quotes; the
 * inbox reads each thread's last event. axe finds no serious or critical violation on the inbox,
 * the thread, the sheet and Compare Quotes. Screenshots go to the test's output folder.
 */
import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { boughtLeadThread, toastSaying } from "./helpers.ts";

const seriousViolations = (page: Page) => axeViolations(page, { seriousOnly: true });

const box = async (locator: Locator) => (await locator.boundingBox())!;

/** The composer: the '+', the form with the box named 'Message', and their frame. */
const composer = (page: Page) => page.getByTestId("composer");

/** The composer's foot is the screen's foot, the newest message is in view above it. */
async function pinned(page: Page, newest: Locator) {
  const viewport = page.viewportSize()!;
  await expect(newest).toBeInViewport();
  await expect.poll(async () => Math.round((await box(composer(page))).y + (await box(composer(page))).height)).toBe(viewport.height);
  const message = await box(page.getByLabel("Message", { exact: true }));
  const last = await box(newest);
  expect(last.y + last.height).toBeLessThanOrEqual(message.y);
}

test("the thread fills the screen under the top bar with the composer pinned and the newest message in view, at 375 and 1280 px and as the keyboard opens; axe passes", async ({ browser }, testInfo) => {
  const title = `Hang a heavy mirror ${randomUUID().slice(0, 6)}`;
  const { client, digger, threadUrl } = await boughtLeadThread(browser, "Pia Phone", title);
  // More than a phone's screen of messages.
  for (let i = 1; i <= 8; i++) {
    await digger.getByLabel("Message").fill(`Message ${i}: I can bring the wall anchors and a level, and check the studs first so the mirror stays put.`);
    await digger.getByRole("button", { name: "Send", exact: true }).click();
    await expect(digger.getByRole("log").getByText(`Message ${i}:`)).toBeVisible();
    // Sent and the box emptied: the next one may be written.
    await expect(digger.getByLabel("Message")).toHaveValue("");
  }
  await digger.close();

  await client.setViewportSize({ width: 375, height: 812 });
  await client.goto("/messages");
  const row = client.getByRole("link").filter({ hasText: title });
  // The last event, and a subtitle for the client: the digger's @handle and the gig.
  await expect(row).toContainText("Message 8: I can bring");
  await expect(row).toContainText(new RegExp(`@\\S+ · ${title}`));
  expect(await seriousViolations(client)).toEqual([]);
  await client.screenshot({ path: testInfo.outputPath("inbox-375.png"), fullPage: true });

  await client.goto(threadUrl);
  const log = client.getByRole("log", { name: "Conversation" });
  await expect(log).toHaveAttribute("aria-live", "polite");
  const newest = log.getByText("Message 8:");
  await pinned(client, newest);
  await client.screenshot({ path: testInfo.outputPath("thread-375.png") });
  // The oldest is scrolled out of view, above; the heading sits under the top bar.
  await expect(log.getByText("Message 1:")).not.toBeInViewport();
  const header = await box(client.getByRole("banner"));
  const heading = await box(client.getByRole("heading", { level: 1 }));
  expect(heading.y).toBeGreaterThanOrEqual(header.y + header.height);
  // One line that grows with its text: four lines make it taller, and it stays pinned.
  const message = client.getByLabel("Message", { exact: true });
  const oneLine = (await box(message)).height;
  await message.fill("One\nTwo\nThree\nFour");
  expect((await box(message)).height).toBeGreaterThan(oneLine + 30);
  await pinned(client, newest);
  // The paper-clip is named for screen readers; the chosen files show as chips.
  await client.getByLabel("Attach files").setInputFiles({ name: "plan.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(client.getByRole("list", { name: "Files to send" })).toContainText("plan.pdf");
  await client.getByRole("button", { name: "Remove plan.pdf" }).click();
  await expect(client.getByRole("list", { name: "Files to send" })).toHaveCount(0);
  // The footer starts below the fold.
  expect((await box(client.getByRole("contentinfo"))).y).toBeGreaterThanOrEqual(812);
  expect(await seriousViolations(client)).toEqual([]);

  // The keyboard opens: the screen is 500 px tall; the newest message stays in view above the box.
  await message.focus();
  await client.setViewportSize({ width: 375, height: 500 });
  await pinned(client, newest);
  await client.screenshot({ path: testInfo.outputPath("thread-375x500.png") });

  await client.setViewportSize({ width: 1280, height: 900 });
  await pinned(client, newest);
  expect(await seriousViolations(client)).toEqual([]);
  await client.screenshot({ path: testInfo.outputPath("thread-1280.png") });
  await client.goto("/messages");
  await client.screenshot({ path: testInfo.outputPath("inbox-1280.png"), fullPage: true });
});

test("a quote from the '+' sheet with its one Send; Report in a message's own menu; the Thread menu's profile, gig and Compare Quotes; the inbox's last event", async ({ browser }, testInfo) => {
  test.slow();
  const title = `Fit a new front door ${randomUUID().slice(0, 6)}`;
  const { client, digger, threadUrl } = await boughtLeadThread(browser, "Mona Sheet", title);
  const threadPath = new URL(threadUrl).pathname;
  await digger.setViewportSize({ width: 375, height: 812 });
  await digger.getByLabel("Message").fill("Hello Mona, I fit doors every week.");
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  await expect(digger.getByRole("log").getByText("Hello Mona")).toBeVisible();

  // '+': the sheet, anchored to the bottom of a phone's screen, offers Send a Quote.
  await digger.getByRole("button", { name: "More actions" }).click();
  const sheet = digger.getByRole("dialog", { name: "More actions" });
  await expect(sheet.getByRole("button", { name: "Send a Quote" })).toBeVisible();
  // Once its opening animation has ended.
  await expect.poll(async () => Math.round((await box(sheet)).y + (await box(sheet)).height)).toBe(812);
  expect(await axeViolations(digger, { seriousOnly: true, include: '[role="dialog"]' })).toEqual([]);
  await digger.screenshot({ path: testInfo.outputPath("sheet-375.png") });
  await sheet.getByRole("button", { name: "Send a Quote" }).click();
  const quoteSheet = digger.getByRole("dialog", { name: "Send a Quote" });
  const form = quoteSheet.getByRole("form", { name: "Send a Quote" });
  // One submit in the sheet, 'Send'; the thread's own Send is outside it.
  await expect(quoteSheet.getByRole("button", { name: /^Send/ })).toHaveCount(1);
  await form.getByLabel("Price ($)").fill("1450");
  await form.getByLabel("What is included").fill("The door, its frame and fitting");
  expect(await axeViolations(digger, { seriousOnly: true, include: '[role="dialog"]' })).toEqual([]);
  await digger.screenshot({ path: testInfo.outputPath("sheet-quote-375.png") });
  await form.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toastSaying(digger, "Quote sent")).toBeVisible();
  await expect(digger.getByRole("dialog")).toHaveCount(0);
  // The sheet's form is its own: the thread's box was not sent with it, and the page did not move.
  await expect(digger.getByText("Please write a message")).toHaveCount(0);
  await expect(digger.getByRole("banner")).toBeInViewport();
  const card = digger.getByTestId("quote-card");
  await expect(card).toContainText("$1,450.00");
  await expect(card).toBeInViewport();
  // With a quote open, the '+' offers no second quote (Propose a visit stays: issue 50).
  await digger.getByRole("button", { name: "More actions" }).click();
  const after = digger.getByRole("dialog", { name: "More actions" });
  await expect(after.getByRole("button", { name: "Propose a visit" })).toBeVisible();
  await expect(after.getByRole("button", { name: "Send a Quote" })).toHaveCount(0);
  await digger.keyboard.press("Escape");
  await expect(digger.getByRole("dialog")).toHaveCount(0);
  await digger.screenshot({ path: testInfo.outputPath("thread-quote-375.png") });
  await digger.setViewportSize({ width: 1280, height: 900 });
  await expect(card).toBeInViewport();
  await digger.screenshot({ path: testInfo.outputPath("thread-quote-1280.png") });
  // The digger's inbox: the quote as the last event, under the client's first name and the gig.
  await digger.goto("/messages");
  const diggerRow = digger.getByRole("link").filter({ hasText: title });
  await expect(diggerRow).toContainText(`Mona · ${title}`);
  await expect(diggerRow).toContainText("Sent a quote: $1,450.00");

  // The client: the inbox, then Report in the digger's message's own menu, and the Thread menu.
  await client.setViewportSize({ width: 375, height: 812 });
  await client.goto("/messages");
  await expect(client.getByRole("link").filter({ hasText: title })).toContainText("Sent a quote: $1,450.00");
  await client.goto(threadPath);
  await expect(client.getByRole("button", { name: "More actions" })).toHaveCount(0);
  await client.screenshot({ path: testInfo.outputPath("thread-client-375.png") });
  const hello = client.getByRole("log").getByRole("listitem").filter({ hasText: "Hello Mona" });
  await hello.getByRole("button", { name: "Message actions" }).click();
  await client.getByRole("button", { name: "Report", exact: true }).click();
  // Closed unsent, the dialog gives the focus back to the message's menu button (its menu closed when it opened).
  await client.keyboard.press("Escape");
  await expect(client.getByRole("dialog")).toHaveCount(0);
  await expect(hello.getByRole("button", { name: "Message actions" })).toBeFocused();
  await hello.getByRole("button", { name: "Message actions" }).click();
  await client.getByRole("button", { name: "Report", exact: true }).click();
  const report = client.getByRole("dialog", { name: "Report this message" });
  await report.getByLabel("Why are you reporting this?").fill("This looks like a scam offer to me.");
  expect(await axeViolations(client, { seriousOnly: true, include: '[role="dialog"]' })).toEqual([]);
  await report.getByRole("button", { name: "Send report" }).click();
  await expect(toastSaying(client, "Message reported")).toBeVisible();
  await expect(hello.getByText("Message reported")).toBeVisible();
  await expect(client.getByRole("dialog")).toHaveCount(0);

  await client.locator("summary").filter({ hasText: "Thread menu" }).click();
  await expect(client.getByRole("link", { name: /'s profile$/ })).toHaveAttribute("href", /^\/digger\/[0-9a-f-]{36}$/);
  await expect(client.getByRole("link", { name: "The gig" })).toHaveAttribute("href", /^\/gig\/[0-9a-f-]{36}$/);
  await expect(client.getByRole("button", { name: "Block" })).toBeVisible();
  await client.screenshot({ path: testInfo.outputPath("thread-menu-375.png") });
  await client.getByRole("link", { name: "Compare Quotes" }).click();
  await expect(client).toHaveURL(/\/my-gigs\/[0-9a-f-]{36}\/quotes$/);
  await expect(client.getByRole("table", { name: "Quotes side by side" })).toContainText("$1,450.00");
  expect(await seriousViolations(client)).toEqual([]);
  await client.screenshot({ path: testInfo.outputPath("compare-375.png"), fullPage: true });
  await client.setViewportSize({ width: 1280, height: 900 });
  await client.screenshot({ path: testInfo.outputPath("compare-1280.png"), fullPage: true });

  // The digger's Thread menu: no profile (a client has none), no Compare Quotes.
  await digger.goto(threadPath);
  await digger.locator("summary").filter({ hasText: "Thread menu" }).click();
  await expect(digger.getByRole("link", { name: "The gig" })).toBeVisible();
  await expect(digger.getByRole("link", { name: /'s profile$/ })).toHaveCount(0);
  await expect(digger.getByRole("link", { name: "Compare Quotes" })).toHaveCount(0);

  // `?compose=quote` opens the sheet at once (the gig page's Send a Quote), once the quote is withdrawn.
  await digger.getByRole("button", { name: "Withdraw" }).click();
  await expect(toastSaying(digger, "Quote withdrawn")).toBeVisible();
  await digger.goto(`${threadPath}?compose=quote`);
  await expect(digger.getByRole("dialog", { name: "Send a Quote" }).getByRole("form", { name: "Send a Quote" })).toBeVisible();
  await digger.keyboard.press("Escape");
  await expect(digger).toHaveURL(threadUrl);
});
