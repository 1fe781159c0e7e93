/**
 * The client's record from diggers' reviews (issue 51), on the demo data: the demo client's
 * past hires carry published reviews from their diggers (server/db/seed/demo-client-reviews.ts).
 * A digger sees the rating on the Browse Gigs card and, on the gig page, in 'About this client'
 * with the Client reviews section; the client sees their own on /account.
 */
import { expect, test } from "./fixtures.ts";
import { DEMO, signedInPage } from "./helpers.ts";

/** The demo client's newest gig (server/db/seed/demo-data.ts). */
const DEMO_CLIENT_GIG = "Replace rotted deck boards and a wobbly railing";
const RATING_LINE = /\d\.\d from \d+ diggers$/;

test("a digger sees the client's rating on the card and the gig page, with the Client reviews section", async ({ browser }) => {
  const digger = await signedInPage(browser, DEMO.digger, "/");
  await digger.goto(`/browse-gigs?q=${encodeURIComponent(DEMO_CLIENT_GIG)}`);
  const card = digger.getByRole("listitem").filter({ hasText: DEMO_CLIENT_GIG });
  await expect(card.getByText(/\d\.\d from \d+ diggers/)).toBeVisible();

  await card.getByRole("link", { name: DEMO_CLIENT_GIG }).click();
  await expect(digger.getByRole("heading", { level: 1, name: DEMO_CLIENT_GIG })).toBeVisible();
  const record = digger.getByRole("region", { name: "About this client" });
  await expect(record.getByRole("listitem").filter({ hasText: RATING_LINE })).toHaveCount(1);
  await expect(record.getByRole("listitem").filter({ hasText: /^Paid as agreed: \d+% yes \(\d+ answers?\)$/ })).toHaveCount(1);

  const reviews = digger.getByRole("region", { name: "Client reviews" });
  await expect(reviews).toBeVisible();
  const items = reviews.getByRole("list", { name: "Client reviews" }).locator(":scope > li");
  expect(await items.count()).toBeGreaterThan(0);
  const first = items.first();
  await expect(first.getByRole("img", { name: /Rated \d out of 5/ })).toBeVisible();
  await expect(first.locator("time")).toHaveText(/\w{3} \d{1,2}, \d{4}/);
  // The reviewer's handle opens their profile.
  const handle = first.getByRole("link").filter({ hasNotText: "Report" }).first();
  const name = (await handle.textContent()) ?? "";
  await handle.click();
  await expect(digger).toHaveURL(/\/digger\/[0-9a-f-]{36}$/);
  await expect(digger.getByRole("heading", { level: 1, name })).toBeVisible();
});

test("the client sees their own record and reviews on /account", async ({ browser }) => {
  const client = await signedInPage(browser, DEMO.client, "/account");
  await client.goto("/account#client-reviews");
  const record = client.getByRole("region", { name: "Your record with diggers" });
  await expect(record.getByRole("listitem").filter({ hasText: RATING_LINE })).toHaveCount(1);
  const reviews = client.getByRole("region", { name: "Client reviews" });
  await expect(reviews).toBeInViewport();
  expect(await reviews.getByRole("list", { name: "Client reviews" }).locator(":scope > li").count()).toBeGreaterThan(0);
});
