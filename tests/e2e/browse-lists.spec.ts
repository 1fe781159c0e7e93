/**
 * Issue 23's lists at 375 and 1280 px: how many results match, Load more appends the next page
 * below the first (without JavaScript it opens the next page, which links back to the first),
 * the Location filter narrows the list and stays in the address, an empty result offers Clear
 * filters, the filter fields always show what the address says, and the landing's hero search
 * opens Browse Talent filtered.
 */
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { confirmedNewClient } from "./helpers.ts";

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 740 : 900 } });
  return waitForHydration(await context.newPage());
}

for (const width of [375, 1280]) {
  test(`at ${width} px: Browse Gigs counts, appends the next page, and narrows by location`, async ({ browser }) => {
    // Three new accounts and 21 gigs posted through the form (each setting off its alerts) before
    // the list is read: 57-90 s on a slow 2-core machine, so three times the usual 90 s.
    test.slow();
    const token = `Ziggurat${randomUUID().slice(0, 6)}`;
    // Clients of their own (confirmed), so that the demo client's My Gigs keeps its first page;
    // three of them, since an account posts at most 10 gigs an hour.
    const clients = [await pageAt(browser, width), await pageAt(browser, width), await pageAt(browser, width)];
    for (const client of clients) await confirmedNewClient(client);
    // 21 gigs with the same word: one page of 20 and one more. Posted through the form's own endpoint.
    const categoryId = await clients[0]!.goto("/post-gig").then(() => clients[0]!.getByLabel("Category").locator("option").nth(1).getAttribute("value"));
    for (let i = 0; i < 21; i++) {
      const response = await clients[i % clients.length]!.request.post("/post-gig", {
        form: {
          acceptTerms: "on",
          title: `${token} repair number ${i}`,
          description: "A small repair job posted for the list test; the details do not matter here at all.",
          location: i === 0 ? `${token} Springs, CO` : "Denver, CO",
          timeline: "This month",
          categoryId: categoryId!,
        },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(302);
    }

    const visitor = await pageAt(browser, width);
    await visitor.goto(`/browse-gigs?q=${token}`);
    await expect(visitor.getByRole("status").filter({ hasText: "21 gigs match" })).toBeVisible();
    const list = visitor.getByRole("list", { name: "Open gigs" });
    await expect(list.getByRole("listitem")).toHaveCount(20);
    await visitor.getByRole("link", { name: "Load more" }).click();
    await expect(list.getByRole("listitem")).toHaveCount(21);
    // Appended: the first page is still there, above the new one, and the address did not change.
    await expect(list.getByRole("link", { name: `${token} repair number 20` })).toBeVisible();
    await expect(list.getByRole("link", { name: `${token} repair number 0` })).toBeVisible();
    await expect(visitor).toHaveURL(`/browse-gigs?q=${token}`);
    await expect(visitor.getByRole("link", { name: "Load more" })).toHaveCount(0);

    // Without JavaScript Load more is the link to the next page, which offers the way back.
    const noScript = await (await browser.newContext({ viewport: { width, height: width < 768 ? 740 : 900 }, javaScriptEnabled: false })).newPage();
    await noScript.goto(`/browse-gigs?q=${token}`);
    await noScript.getByRole("link", { name: "Load more" }).click();
    await expect(noScript).toHaveURL(new RegExp(`/browse-gigs\\?q=${token}&cursor=`));
    await expect(noScript.getByRole("list", { name: "Open gigs" }).getByRole("listitem")).toHaveCount(1);
    await noScript.getByRole("link", { name: "Back to the first page" }).click();
    await expect(noScript).toHaveURL(`/browse-gigs?q=${token}`);
    await expect(noScript.getByText("21 gigs match")).toBeVisible();
    await expect(noScript.getByRole("link", { name: "Back to the first page" })).toHaveCount(0);

    // The Location filter narrows the list and stays in the address.
    await visitor.getByLabel("Location").fill(`${token} springs`);
    await visitor.getByRole("button", { name: "Search" }).click();
    await expect(visitor).toHaveURL(new RegExp(`location=${token}\\+springs`));
    await expect(visitor.getByRole("status").filter({ hasText: "1 gig matches" })).toBeVisible();
    await expect(list.getByRole("listitem")).toHaveCount(1);

    // Nothing there: Clear filters brings the whole list back.
    await visitor.goto(`/browse-gigs?location=nowhere-${token}`);
    await expect(visitor.getByText("No gigs found. Try adjusting your filters.")).toBeVisible();
    await visitor.getByRole("link", { name: "Clear filters" }).click();
    await expect(visitor).toHaveURL("/browse-gigs");
    await expect(list.getByRole("listitem").first()).toBeVisible();
  });

  test(`at ${width} px: every filter field on both browse pages shows what the address says after Clear filters and Back`, async ({ browser }) => {
    const visitor = await pageAt(browser, width);
    // Browse Gigs: the tester's steps, then every field.
    await visitor.goto("/browse-gigs");
    const gigSearch = visitor.getByRole("search", { name: "Find gigs" });
    await gigSearch.getByLabel("Location").fill("Austin");
    await gigSearch.getByRole("button", { name: "Search" }).click();
    await expect(visitor).toHaveURL(/location=Austin/);
    await gigSearch.getByLabel("Location").fill("Zzzyxville");
    await gigSearch.getByRole("button", { name: "Search" }).click();
    await expect(visitor.getByText("No gigs found. Try adjusting your filters.")).toBeVisible();
    await visitor.getByRole("link", { name: "Clear filters" }).click();
    await expect(visitor).toHaveURL("/browse-gigs");
    await expect(gigSearch.getByLabel("Location")).toHaveValue("");
    await visitor.goBack();
    await expect(visitor).toHaveURL(/location=Zzzyxville/);
    await expect(gigSearch.getByLabel("Location")).toHaveValue("Zzzyxville");

    await visitor.goto("/browse-gigs");
    await gigSearch.getByLabel("Category").selectOption({ index: 1 });
    await expect(visitor).toHaveURL(/category=[^&]/);
    await gigSearch.getByLabel("Budget").selectOption("over5k");
    await expect(visitor).toHaveURL(/budget=over5k/);
    await gigSearch.getByLabel("Search gigs").fill("zzqq-nothing");
    await gigSearch.getByLabel("Location").fill("Zzzyxville");
    await gigSearch.getByRole("button", { name: "Search" }).click();
    await expect(visitor).toHaveURL(/q=zzqq-nothing/);
    await visitor.getByRole("link", { name: "Clear filters" }).click();
    await expect(visitor).toHaveURL("/browse-gigs");
    for (const label of ["Search gigs", "Location", "Category", "Budget"]) {
      await expect(gigSearch.getByLabel(label), label).toHaveValue("");
    }
    await visitor.goBack();
    await expect(gigSearch.getByLabel("Search gigs")).toHaveValue("zzqq-nothing");
    await expect(gigSearch.getByLabel("Location")).toHaveValue("Zzzyxville");
    await expect(gigSearch.getByLabel("Budget")).toHaveValue("over5k");
    await expect(gigSearch.getByLabel("Category")).not.toHaveValue("");

    // Browse Talent: the same for its fields (Sort by back to its default).
    await visitor.goto("/browse-diggers");
    const talentSearch = visitor.getByRole("search", { name: "Find diggers" });
    await talentSearch.getByLabel("Category").selectOption({ index: 1 });
    await expect(visitor).toHaveURL(/category=[^&]/);
    await talentSearch.getByLabel("Sort by").selectOption("rate");
    await expect(visitor).toHaveURL(/sort=rate/);
    await talentSearch.getByLabel("Search", { exact: true }).fill("zzqq-nothing");
    await talentSearch.getByLabel("Location").fill("Zzzyxville");
    await talentSearch.getByRole("button", { name: "Search" }).click();
    await expect(visitor.getByText("No diggers found. Try adjusting your filters.")).toBeVisible();
    await visitor.getByRole("link", { name: "Clear filters" }).click();
    await expect(visitor).toHaveURL("/browse-diggers");
    for (const label of ["Location", "Category"]) {
      await expect(talentSearch.getByLabel(label), label).toHaveValue("");
    }
    await expect(talentSearch.getByLabel("Search", { exact: true })).toHaveValue("");
    await expect(talentSearch.getByLabel("Sort by")).toHaveValue("rating");
    await visitor.goBack();
    await expect(talentSearch.getByLabel("Search", { exact: true })).toHaveValue("zzqq-nothing");
    await expect(talentSearch.getByLabel("Location")).toHaveValue("Zzzyxville");
    await expect(talentSearch.getByLabel("Sort by")).toHaveValue("rate");
  });

  test(`at ${width} px: the landing's "What do you need?" and "Where?" open Browse Talent filtered`, async ({ browser }) => {
    const visitor = await pageAt(browser, width);
    await visitor.goto("/");
    const search = visitor.getByRole("search", { name: "Find talent" });
    await search.getByLabel("What do you need?").fill("plumb");
    await search.getByLabel("Where?").fill("nowhere-at-all");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(visitor).toHaveURL("/browse-diggers?q=plumb&location=nowhere-at-all");
    await expect(visitor.getByLabel("Location")).toHaveValue("nowhere-at-all");
    await expect(visitor.getByText("No diggers found. Try adjusting your filters.")).toBeVisible();
    await visitor.getByRole("link", { name: "Clear filters" }).click();
    await expect(visitor).toHaveURL("/browse-diggers");
    await expect(visitor.getByRole("status").filter({ hasText: /^\d[\d,]*\+? diggers? match(es)?$/ })).toBeVisible();
  });
}
