/**
 * The reply guarantee in the browser (issue 48): a new digger buys a lead and writes within 24
 * hours (the lead card: 'Reply guarantee: refunded on ...'); /dev/clock (local mode only) moves
 * the purchase's times 48 hours back and runs the guarantee's check; the lead card shows the
 * refund, while the gig is off Browse Gigs and its page says 'Paused: ...' to another digger with
 * Purchase Lead disabled; the client opens the thread and the gig is listed again. Screenshots of
 * My Leads and the paused gig page at 375 and 1280 px.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { GUARANTEE_TEXTS } from "../../core/reply-guarantee.ts";
import { axeViolations } from "./axe.ts";
import { expect, newPage, test } from "./fixtures.ts";
import { buyLead, confirmedNewClient, DEMO, newDigger, postGig, signedInPage } from "./helpers.ts";

const WIDTHS = [375, 1280] as const;

/** The gig `title` on Browse Gigs, as `page`'s digger finds it by its title. */
async function browseLink(page: Page, title: string) {
  await page.goto(`/browse-gigs?q=${encodeURIComponent(title)}`);
  return page.getByRole("link", { name: title });
}

async function shoot(page: Page, name: string, path: (file: string) => string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: path(`${name}-${width}.png`), fullPage: true });
  }
}

test("a digger who wrote in time is refunded when nobody opens the thread; the gig pauses until the client opens it", async ({ browser }, testInfo) => {
  test.slow();
  const title = `Fix the porch steps ${randomUUID().slice(0, 6)}`;
  const client = await newPage(browser);
  await confirmedNewClient(client, "Quinn Quiet");
  await postGig(client, title);

  // A new digger (their My Leads holds this lead alone) buys and writes at once.
  const { page: digger } = await newDigger(browser);
  await buyLead(digger, title);
  const gigPath = new URL(digger.url()).pathname;
  expect(gigPath).toMatch(/^\/gig\/[0-9a-f-]{36}$/);
  await digger.goto("/my-leads");
  const card = digger.getByRole("listitem").filter({ hasText: title });
  await expect(card.getByText(/^Write to the client by .+ to be covered by the reply guarantee$/)).toBeVisible();
  await card.getByRole("link", { name: "Message" }).click();
  await expect(digger).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  const threadPath = new URL(digger.url()).pathname;
  await digger.getByLabel("Message").fill("Hello Quinn, I can fix the steps on Saturday morning.");
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  await expect(digger.getByRole("log").getByText("I can fix the steps on Saturday morning.")).toBeVisible();
  await digger.goto("/my-leads");
  await expect(card.getByText(/^Reply guarantee: refunded on .+ if the client has not opened your thread$/)).toBeVisible();
  await expect(card.getByText("Client has not opened your thread · Messages: 1 from the digger, 0 from the client · First message 0 minutes after buying")).toBeVisible();

  // 48 hours on (the local clock page moves the purchase's times back and runs the check).
  await digger.goto("/dev/clock");
  await digger.getByLabel("Purchase or thread id").fill(threadPath.split("/").pop()!);
  await digger.getByRole("button", { name: "Move back 48 hours" }).click();
  await expect(digger.getByRole("status").filter({ hasText: "its gig paused" })).toBeVisible();
  await shoot(digger, "dev-clock", (file) => testInfo.outputPath(file));

  // Another digger: the gig is off Browse Gigs, and its page says why, with Purchase Lead disabled.
  const other = await signedInPage(browser, DEMO.digger, "/browse-gigs");
  await expect(await browseLink(other, title)).toHaveCount(0);
  await other.goto(gigPath);
  await expect(other.getByText(GUARANTEE_TEXTS.paused)).toBeVisible();
  await expect(other.getByRole("button", { name: "Purchase Lead" })).toBeDisabled();
  expect(await axeViolations(other, { seriousOnly: true })).toEqual([]);
  await shoot(other, "paused-gig", (file) => testInfo.outputPath(file));

  // The digger's lead card: refunded by the guarantee (once the guarantee's check is wired to /dev/clock).
  await digger.goto("/my-leads");
  expect(await axeViolations(digger, { seriousOnly: true })).toEqual([]);
  await shoot(digger, "my-leads", (file) => testInfo.outputPath(file));
  await expect.soft(card.getByText(GUARANTEE_TEXTS.refunded)).toBeVisible();

  // The client opens the thread: the gig is for sale again, listed on Browse Gigs.
  await client.goto(threadPath);
  await expect(client.getByRole("log").getByText("I can fix the steps on Saturday morning.")).toBeVisible();
  await expect(await browseLink(other, title)).toBeVisible();
  await other.goto(gigPath);
  await expect(other.getByText(GUARANTEE_TEXTS.paused)).toHaveCount(0);
  await expect(other.getByRole("button", { name: "Purchase Lead" })).toBeEnabled();
});
