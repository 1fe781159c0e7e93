/**
 * Issue 32, "On a phone": at 375 px the thread fills the screen under the top bar, the newest
 * message is in view, the message box stays at the bottom, and the messages are a log region
 * announced politely; axe finds no serious or critical violation on /messages nor on a thread.
 * Screenshots at 375 and 1280 px go to the test's output folder, for a person to look at.
 */
import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { boughtLeadThread } from "./helpers.ts";

const seriousViolations = (page: Page) => axeViolations(page, { seriousOnly: true });

const box = async (locator: Locator) => (await locator.boundingBox())!;

test("on a phone the thread fills the screen under the top bar, the newest message in view and the box at the bottom; axe passes on /messages and the thread", async ({ browser }, testInfo) => {
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
  await expect(client.getByRole("link").filter({ hasText: title })).toBeVisible();
  expect(await seriousViolations(client)).toEqual([]);
  await client.screenshot({ path: testInfo.outputPath("inbox-375.png"), fullPage: true });

  await client.goto(threadUrl);
  const log = client.getByRole("log", { name: "Conversation" });
  await expect(log).toHaveAttribute("aria-live", "polite");
  const newest = log.getByText("Message 8:");
  await expect(newest).toBeInViewport();
  await client.screenshot({ path: testInfo.outputPath("thread-375.png") });
  // The oldest is scrolled out of view, above.
  await expect(log.getByText("Message 1:")).not.toBeInViewport();
  const viewport = client.viewportSize()!;
  const header = await box(client.getByRole("banner"));
  const heading = await box(client.getByRole("heading", { level: 1 }));
  expect(heading.y).toBeGreaterThanOrEqual(header.y + header.height);
  // The box at the bottom of the screen, and the page itself does not scroll: the log does.
  const send = await box(client.getByRole("button", { name: "Send", exact: true }));
  expect(send.y + send.height).toBeLessThanOrEqual(viewport.height);
  expect(send.y + send.height).toBeGreaterThan(viewport.height - 48);
  await expect(client.getByLabel("Message")).toBeInViewport();
  const newestBox = await box(newest);
  expect(newestBox.y + newestBox.height).toBeLessThanOrEqual((await box(client.getByLabel("Message"))).y);
  // The footer starts below the fold.
  expect((await box(client.getByRole("contentinfo"))).y).toBeGreaterThanOrEqual(viewport.height);
  expect(await seriousViolations(client)).toEqual([]);

  await client.setViewportSize({ width: 1280, height: 900 });
  await expect(newest).toBeInViewport();
  await client.screenshot({ path: testInfo.outputPath("thread-1280.png") });
  await client.goto("/messages");
  await client.screenshot({ path: testInfo.outputPath("inbox-1280.png"), fullPage: true });
});
