/**
 * The public pages in a browser, signed out, against the server with demo data: where every
 * call to action and footer link leads, accessibility (axe), and no sideways scrolling.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";

const publicPages = ["/", "/how-it-works", "/terms", "/privacy"];

async function clickThrough(page: Page, from: string, scope: "main" | "footer", name: string, expected: string | RegExp) {
  await page.goto(from);
  const container =
    scope === "main" ? page.getByRole("main") : page.getByRole("navigation", { name: "Footer" });
  await container.getByRole("link", { name, exact: true }).first().click();
  await expect(page).toHaveURL(expected);
}

test.describe("landing page calls to action (signed out)", () => {
  const targets: Array<[name: string, url: string]> = [
    ["Find Talent", "/auth?redirect=/browse-diggers"],
    ["Build My Digs", "/auth?type=digger&redirect=/digger-registration"],
    ["Create Your Dig", "/auth?type=digger&redirect=/digger-registration"],
    ["Post a Gig", "/auth?redirect=/post-gig"],
    ["Browse All Talent", "/browse-diggers"],
    ["Browse All Gigs", "/browse-gigs"],
  ];
  for (const [name, url] of targets) {
    test(`${name} goes to ${url}`, async ({ page }) => {
      await clickThrough(page, "/", "main", name, url);
    });
  }

  test("a featured digger opens that digger's profile, and a recent gig opens that gig", async ({ page }) => {
    // The newest gigs and diggers are often another test's, running beside this one, which may
    // delete, hide or suspend them between the list's load and the click (the page then sends
    // the visitor to the list): such a try starts again from a fresh landing page.
    for (const [region, url] of [["Featured Diggers", /\/digger\/[0-9a-f-]{36}$/], ["Recent Gigs", /\/gig\/[0-9a-f-]{36}$/]] as const) {
      const cards = page.getByRole("region", { name: region }).getByRole("heading", { level: 3 });
      await expect(async () => {
        await page.goto("/");
        await expect(cards).toHaveCount(3);
        await cards.first().getByRole("link").click();
        await expect(page).toHaveURL(url, { timeout: 5_000 });
      }).toPass();
    }
  });

  test("the h1 stays the product name and the pricing is per lead", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Digs & Gigs");
    const pricing = page.getByRole("region", { name: "Simple, Pay-Per-Lead Pricing" });
    await expect(pricing.getByRole("row", { name: "$5,000 $50.00" })).toBeVisible();
    await expect(pricing.getByRole("row", { name: "$20,000 $100.00" })).toBeVisible();
  });
});

test.describe("/how-it-works calls to action (signed out)", () => {
  const targets: Array<[name: string, url: string]> = [
    ["Post a Gig", "/auth?redirect=/post-gig"],
    ["Become a Digger", "/auth?type=digger&redirect=/digger-registration"],
  ];
  for (const [name, url] of targets) {
    test(`${name} goes to ${url}`, async ({ page }) => {
      await clickThrough(page, "/how-it-works", "main", name, url);
    });
  }
});

test.describe("footer links", () => {
  const links: Array<[name: string, url: string]> = [
    ["How It Works", "/how-it-works"],
    ["Browse Gigs", "/browse-gigs"],
    ["Browse Talent", "/browse-diggers"],
    ["Contact", "/contact"],
    ["Terms of Service", "/terms"],
    ["Privacy Policy", "/privacy"],
  ];
  for (const [name, url] of links) {
    test(`${name} goes to ${url}`, async ({ page }) => {
      await clickThrough(page, "/", "footer", name, url);
    });
  }
});

test.describe("accessibility", () => {
  for (const path of publicPages) {
    test(`${path} has no axe violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test.describe("layout", () => {
  for (const width of [375, 1280]) {
    for (const path of publicPages) {
      test(`${path} does not scroll sideways at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      });
    }
  }
});
