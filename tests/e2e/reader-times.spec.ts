/**
 * Issue 47, times in the reader's zone: a browser set to America/Chicago and one set to
 * Asia/Tokyo each sign up (the form reads the browser's zone), then read the same instant (a
 * review's time on a digger's profile) each in their own zone, written by the server: nothing
 * changes at hydration, and the console says nothing of it. /account's Time zone shows the zone
 * read at sign-up.
 */
import { randomUUID } from "node:crypto";
import type { Browser, ConsoleMessage, Page } from "@playwright/test";
import { zonedDateTime } from "../../core/zoned-dates.ts";
import { demoDiggers } from "../../server/db/seed/demo-data.ts";
import { axeViolations } from "./axe.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { NEW_CLIENT_PASSWORD, toastSaying } from "./helpers.ts";

const SHOTS = process.env.READER_TIMES_SHOTS;

/** A browser in `timezoneId`, signed up through the form; every console message it logs is kept. */
async function readerIn(browser: Browser, timezoneId: string, width: number): Promise<{ page: Page; messages: ConsoleMessage[] }> {
  const context = await browser.newContext({ timezoneId, viewport: { width, height: 900 } });
  const page = waitForHydration(await context.newPage());
  const messages: ConsoleMessage[] = [];
  page.on("console", (message) => messages.push(message));
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByRole("radio", { name: /^Consumer/ }).click();
  await page.getByLabel("Full Name").fill(`Reader ${timezoneId}`);
  await page.getByLabel("Email").fill(`reader-${randomUUID()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill(NEW_CLIENT_PASSWORD);
  await page.getByLabel("I confirm I am 18 or older").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL("/");
  return { page, messages };
}

const ZONES = [
  { zone: "America/Chicago", short: /C[SD]T$/ },
  { zone: "Asia/Tokyo", short: /GMT\+9$/ },
] as const;

test("a browser in Chicago and one in Tokyo read the same review's time each in their zone, with no hydration warning", async ({ browser }) => {
  const handle = demoDiggers[0]!.handle;
  const seen: Array<{ dateTime: string; title: string }> = [];
  for (const { zone, short } of ZONES) {
    const { page, messages } = await readerIn(browser, zone, 1280);
    await page.goto("/browse-diggers");
    await page.getByRole("link", { name: new RegExp(handle) }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: handle })).toBeVisible();
    const time = page.getByRole("region", { name: "Reviews" }).locator("time").first();
    const dateTime = (await time.getAttribute("dateTime"))!;
    const title = (await time.getAttribute("title"))!;
    // The exact time in the reader's zone, as the server wrote it: the same characters Node writes for that zone.
    expect(title).toBe(zonedDateTime(dateTime, zone));
    expect(title).toMatch(short);
    expect(await time.textContent()).not.toBe("");
    seen.push({ dateTime, title });
    // The page was written once, by the server: hydration changed nothing and said nothing.
    await page.reload();
    expect(await time.getAttribute("title")).toBe(title);
    expect(messages.map((m) => m.text()).filter((text) => /hydrat/i.test(text))).toEqual([]);
    await page.context().close();
  }
  // The same instant, two texts.
  expect(seen[0]!.dateTime).toBe(seen[1]!.dateTime);
  expect(seen[0]!.title).not.toBe(seen[1]!.title);
});

for (const width of [375, 1280]) {
  test(`/account's Time zone shows the zone read at sign-up and saves another, at ${width} px`, async ({ browser }, testInfo) => {
    const { page, messages } = await readerIn(browser, "America/Chicago", width);
    await page.goto("/account");
    const field = page.getByLabel("Time zone");
    await expect(field).toHaveValue("America/Chicago");
    expect(await axeViolations(page)).toEqual([]);
    const card = field.locator('xpath=ancestor::*[@data-slot="card"]');
    await card.screenshot({ path: SHOTS ? `${SHOTS}/account-time-zone-${width}.png` : testInfo.outputPath(`account-time-zone-${width}.png`) });

    await field.selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Save Time Zone" }).click();
    await expect(toastSaying(page, "Time zone saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Time zone")).toHaveValue("Asia/Tokyo");

    // The bell, in the reader's zone (no entries yet for a new account).
    await page.getByRole("button", { name: /^Notifications/ }).click();
    const panel = page.getByRole("dialog", { name: "Notifications" });
    await expect(panel).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: SHOTS ? `${SHOTS}/bell-${width}.png` : testInfo.outputPath(`bell-${width}.png`) });
    expect(messages.map((m) => m.text()).filter((text) => /hydrat/i.test(text))).toEqual([]);
    await page.context().close();
  });
}
