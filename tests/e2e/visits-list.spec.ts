/**
 * Visits outside the thread (issue 50) in the browser, on the demo data's visits
 * (server/db/seed/demo-visits.ts): at 375 px the demo digger opens Visits from the phone menu,
 * sees their booked visit under Upcoming with the client's first name and their three past
 * visits marked 'Visited' under Past, and the entry opens its conversation; the lead's card on My
 * Leads says 'Visit booked: {day, window}', the demo client's gig card on My Gigs says it with the
 * digger's handle, and the demo digger's profile and Browse Talent card say 'Kept 3 of 3 visits'.
 * Screenshots at 375 and 1280 px into VISITS_SHOTS when it is set.
 */
import type { Browser, Page } from "@playwright/test";
import { demoClients, demoDiggers, demoGigs } from "../../server/db/seed/demo-data.ts";
import { axeViolations } from "./axe.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { DEMO, followingLoadMore, myGigCard, signIn } from "./helpers.ts";

const SHOTS = process.env.VISITS_SHOTS;
const shot = async (page: Page, name: string, width: number) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
};

/** The demo digger's lead with a visit booked: the first demo gig of another client than the demo one (seed/index.ts). */
const leadGig = demoGigs.find((gig) => gig.clientIndex !== 0)!;
const leadClientFirstName = demoClients[leadGig.clientIndex]!.fullName.split(" ")[0]!;
/** The demo client's gig with a visit booked: their first (bought by another digger). */
const ownGig = demoGigs.find((gig) => gig.clientIndex === 0)!;

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
  return waitForHydration(await context.newPage());
}

/** The card of the lead `title` on My Leads, following Load more: other specs buy newer leads as the demo digger. */
async function leadCard(page: Page, title: string) {
  await page.goto("/my-leads");
  return followingLoadMore(page, page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) }));
}

/** Nothing wider than the screen (no sideways scrolling on a phone). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("at 375 px the digger opens Visits from the menu, sees their booked visit and their past ones, and opens the conversation", async ({ browser }) => {
  const page = await pageAt(browser, 375);
  await signIn(page, DEMO.digger, DEMO.password, "/my-leads");
  await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
  await page.getByRole("banner").getByRole("link", { name: "Visits", exact: true }).click();
  await expect(page).toHaveURL("/visits");
  await expect(page.getByRole("heading", { level: 1, name: "Visits" })).toBeVisible();

  const upcoming = page.getByRole("region", { name: "Upcoming" });
  const entry = upcoming.getByTestId("visit-entry").filter({ hasText: leadGig.title.trim() });
  await expect(entry).toHaveCount(1);
  await expect(entry.locator("time")).toHaveText(/^Visit booked: \w{3}, \w{3} \d{1,2}, \d{1,2}:\d\d/);
  await expect(entry).toContainText(`With ${leadClientFirstName}`);
  const past = page.getByRole("region", { name: "Past" });
  await expect(past.getByText("Visited", { exact: true })).toHaveCount(3);
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "visits", 375);

  await entry.click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
});

for (const width of [375, 1280]) {
  test(`at ${width} px the lead card, the gig card, the profile and the Browse Talent card show the visit and the kept figure`, async ({ browser }) => {
    const digger = await pageAt(browser, width);
    await signIn(digger, DEMO.digger, DEMO.password, "/visits");
    await expect(digger.getByRole("region", { name: "Upcoming" })).toBeVisible();
    if (width === 1280) await shot(digger, "visits", width);

    const lead = await leadCard(digger, leadGig.title.trim());
    await expect(lead.getByTestId("visit-booked")).toHaveText(/^Visit booked: \w{3}, \w{3} \d{1,2}, /);
    await lead.scrollIntoViewIfNeeded();
    if (SHOTS) await lead.screenshot({ path: `${SHOTS}/my-leads-card-${width}.png` });
    expect(await overflow(digger)).toBeLessThanOrEqual(0);

    const handle = demoDiggers[0]!.handle;
    await digger.goto("/browse-diggers");
    await digger.getByRole("link", { name: new RegExp(handle) }).first().click();
    await expect(digger.getByRole("heading", { level: 1, name: handle })).toBeVisible();
    await expect(digger.getByText("Kept 3 of 3 visits")).toBeVisible();
    await shot(digger, "profile", width);
    await digger.goto(`/browse-diggers?q=${handle}`);
    await expect(digger.getByRole("listitem").filter({ hasText: handle }).getByText("Kept 3 of 3 visits")).toBeVisible();
    await shot(digger, "browse-talent", width);

    const client = await pageAt(browser, width);
    await signIn(client, DEMO.client, DEMO.password, "/my-gigs");
    const card = await myGigCard(client, ownGig.title.trim());
    await expect(card.getByTestId("visit-booked")).toHaveText(/^Visit booked: \w{3}, \w{3} \d{1,2}, .+ with \S+$/);
    await card.scrollIntoViewIfNeeded();
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/my-gigs-card-${width}.png` });
    expect(await overflow(client)).toBeLessThanOrEqual(0);
    await client.goto("/visits");
    await expect(client.getByRole("region", { name: "Upcoming" }).getByTestId("visit-entry").filter({ hasText: ownGig.title.trim() })).toContainText("Client confirmed");
    await shot(client, "visits-client", width);
  });
}
