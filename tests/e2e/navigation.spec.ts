import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { axeViolations } from "./axe.ts";
import { boughtLeadThread, DEMO, signIn, startDiggerRegistration } from "./helpers.ts";
import { signedInPages, specPages } from "../support/pages.ts";

for (const [path, heading] of specPages) {
  test(`${path} shows its page in the shared layout`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Footer" })).toBeVisible();
  });
}

for (const [path, redirect] of signedInPages) {
  test(`${path} sends a visitor to sign in first`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(redirect);
  });
}

test("an unknown address shows the 404 page, and Return to Home goes home", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Digs & Gigs" })).toBeVisible();
});

test("the app hydrates: header links navigate in the browser without a full reload", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "still here"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "How It Works" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "How It Works" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("still here");
  await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL("/privacy");
});

/*
 * Issue 47, navigation by role: each role's top bar in order, the same order in the phone menu
 * (with the unread count), Get Started on the Sign Up tab, a digger's first profile landing on
 * Browse Gigs in their categories and city, Post a Gig above the fold on a phone's home page,
 * visible labels and tap targets of at least 24 x 24 px on the pages touched, and axe.
 */
const SHOTS = "/work/notes/shots/wp4-nav";

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
  return waitForHydration(await context.newPage());
}

/** The top bar's links in order as a person sees them (the badge's count left out): at 375 px, in the opened menu. */
async function menuLinks(page: Page, width: number): Promise<string[]> {
  const header = page.getByRole("banner");
  if (width < 768) {
    const menu = header.getByRole("button", { name: "Menu" });
    if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  }
  return header
    .getByRole("navigation", { name: "Main" })
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => (link.querySelector("[aria-hidden=true]") ?? link).textContent ?? ""));
}

/** The bar's actions after its links (buttons and links outside the Main navigation), visible ones, in order. */
async function actionNames(page: Page): Promise<string[]> {
  const actions = page.getByRole("banner").locator("a, button").filter({ visible: true });
  const names: string[] = [];
  for (const action of await actions.all()) {
    // Not the links, the Menu button, the brand or the bell.
    const skip = await action.evaluate(
      (el) =>
        el.closest("nav") !== null ||
        el.getAttribute("aria-controls") === "site-menu" ||
        el.textContent === "Digs & Gigs" ||
        (el.getAttribute("aria-label") ?? "").startsWith("Notifications"),
    );
    if (skip) continue;
    const name = (await action.textContent())?.trim() ?? "";
    if (name) names.push(name);
  }
  return names;
}

/**
 * Links and buttons on the page (or in `scope`) smaller than 24 x 24 px (WCAG 2.2 target size),
 * but for links inside a sentence and the skip link (off screen until focused).
 */
async function smallTargets(page: Page, scope = "body"): Promise<string[]> {
  return page.locator(scope).locator("a, button, summary, [role=button], [role=tab]").evaluateAll((targets) =>
    targets.flatMap((el) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || el.classList.contains("sr-only")) return [];
      // The exception for a link in a line of text.
      if (el.tagName === "A" && el.parentElement?.closest("p, li > span") && style.display === "inline") return [];
      // A card's title link (CardLink): its ::after covers the whole card, which is the target.
      if (el.tagName === "A" && getComputedStyle(el, "::after").position === "absolute") return [];
      if (box.width + 0.5 >= 24 && box.height + 0.5 >= 24) return [];
      return [`${el.tagName.toLowerCase()} "${(el.textContent ?? el.getAttribute("aria-label") ?? "").trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`];
    }),
  );
}

/** Visible form fields without a visible label (a <label> for it, or aria-labelledby naming visible text). */
async function unlabelledFields(page: Page): Promise<string[]> {
  return page.locator("input:not([type=hidden]), select, textarea").evaluateAll((fields) =>
    fields.flatMap((field) => {
      const visible = (el: Element) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden" && (el.textContent ?? "").trim() !== "";
      };
      if (!visible(field) && field.getBoundingClientRect().width === 0) return [];
      const control = field as HTMLInputElement;
      const byLabel = Array.from(control.labels ?? []).some((label) => {
        const box = label.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && !label.classList.contains("sr-only") && (label.textContent ?? "").trim() !== "";
      });
      const byIds = (field.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean).some((id) => {
        const el = document.getElementById(id);
        return el !== null && visible(el) && !el.classList.contains("sr-only");
      });
      return byLabel || byIds ? [] : [`${field.tagName.toLowerCase()}[name=${field.getAttribute("name")}]`];
    }),
  );
}

/** What every page touched must hold at any width: visible labels, axe; at 375 px also tap targets. */
async function checkPage(page: Page, width: number) {
  expect(await unlabelledFields(page)).toEqual([]);
  if (width < 768) expect(await smallTargets(page)).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
}

for (const width of [375, 1280]) {
  test(`at ${width} px a visitor has Browse Gigs, Browse Talent, How It Works and Contact, then Sign In and Get Started, which opens Sign Up`, async ({ browser }) => {
    const page = await pageAt(browser, width);
    await page.goto("/");
    // Post a Gig is the home page's first, main action: above the fold on a phone.
    const postGig = page.getByRole("main").getByRole("link", { name: "Post a Gig" }).first();
    await expect(postGig).toBeInViewport({ ratio: 1 });
    await expect(postGig).toHaveAttribute("href", "/auth?redirect=/post-gig");
    await page.screenshot({ path: `${SHOTS}/home-visitor-${width}.png` });
    await checkPage(page, width);
    expect(await menuLinks(page, width)).toEqual(["Browse Gigs", "Browse Talent", "How It Works", "Contact"]);
    expect(await actionNames(page)).toEqual(["Sign In", "Get Started"]);
    await page.screenshot({ path: `${SHOTS}/menu-visitor-${width}.png` });
    await checkPage(page, width);
    await page.getByRole("banner").getByRole("link", { name: "Get Started" }).click();
    await expect(page).toHaveURL("/auth?redirect=/post-gig&tab=signup");
    await expect(page.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByLabel("Full Name")).toBeVisible();
  });

  test(`at ${width} px a client has Post a Gig first, then My Gigs, Messages, Visits, Browse Talent and Account; the home page too`, async ({ browser }) => {
    const page = await pageAt(browser, width);
    await signIn(page, DEMO.client, DEMO.password, "/");
    const postGig = page.getByRole("main").getByRole("link", { name: "Post a Gig" }).first();
    await expect(postGig).toBeInViewport({ ratio: 1 });
    await expect(postGig).toHaveAttribute("href", "/post-gig");
    expect(await menuLinks(page, width)).toEqual(["Post a Gig", "My Gigs", "Messages", "Visits", "Browse Talent", "Account", "How It Works", "Contact"]);
    expect(await actionNames(page)).toEqual(["Sign Out"]);
    await page.screenshot({ path: `${SHOTS}/menu-client-${width}.png` });
    await checkPage(page, width);
  });

  test(`at ${width} px a digger's first profile lands on Browse Gigs in their categories and city; their bar has Browse Gigs first, then My Leads, Messages, Visits, Reference Requests and Account`, async ({ browser }) => {
    const page = await pageAt(browser, width);
    await startDiggerRegistration(page);
    // A second category, besides the helper's Handyman Services.
    await page.getByRole("checkbox", { name: "Plumbing", exact: true }).first().check();
    await page.getByRole("button", { name: "Create Digger Profile" }).click();
    await expect(page.getByText("Profile created successfully!")).toBeVisible();
    await expect(page).toHaveURL(/\/browse-gigs\?category=[0-9a-f-]{36}&category=[0-9a-f-]{36}&location=Eugene$/);
    await expect(page.getByRole("heading", { level: 1, name: "Browse Gigs" })).toBeVisible();
    await expect(page.getByText("Open requests from clients near you.")).toBeVisible();
    const category = page.getByLabel("Category");
    await expect(category.locator("option:checked")).toHaveText(/^2 categories: (Handyman Services, Plumbing|Plumbing, Handyman Services)$/);
    await expect(page.getByLabel("Location")).toHaveValue("Eugene");
    await page.screenshot({ path: `${SHOTS}/browse-after-registration-${width}.png`, fullPage: width < 768 });
    await checkPage(page, width);

    expect(await menuLinks(page, width)).toEqual(["Browse Gigs", "My Leads", "Messages", "Visits", "Reference Requests", "Account", "How It Works", "Contact"]);
    expect(await actionNames(page)).toEqual(["My Profile", "Sign Out"]);
    await page.screenshot({ path: `${SHOTS}/menu-digger-${width}.png` });
    await checkPage(page, width);
    // Browse Gigs in the bar is their own area; choosing one category replaces the two.
    await page.getByRole("banner").getByRole("link", { name: "Browse Gigs" }).click();
    await expect(page).toHaveURL("/browse-gigs?location=Eugene");
    await expect(page.getByText("Open requests from clients near you.")).toBeVisible();
    await page.getByLabel("Location").fill("Phoenix");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Open requests from clients near Phoenix.")).toBeVisible();
  });
}

test("at 375 px the phone menu shows Messages' unread count", async ({ browser }) => {
  const title = `Hang a mirror ${randomUUID().slice(0, 6)}`;
  const { client, digger } = await boughtLeadThread(browser, "Nora Navigation", title);
  await digger.getByLabel("Message").fill("Hi Nora, I can hang it on Tuesday.");
  await digger.getByRole("button", { name: "Send", exact: true }).click();
  await expect(digger.getByRole("log").getByText("Hi Nora, I can hang it on Tuesday.")).toBeVisible();
  await client.setViewportSize({ width: 375, height: 812 });
  await client.goto("/my-gigs");
  expect(await menuLinks(client, 375)).toEqual(["Post a Gig", "My Gigs", "Messages", "Visits", "Browse Talent", "Account", "How It Works", "Contact"]);
  const messages = client.getByRole("banner").getByRole("link", { name: "Messages, 1 unread" });
  await expect(messages).toBeVisible();
  await expect(messages.getByTestId("unread-threads")).toHaveText("1");
  await client.screenshot({ path: `${SHOTS}/menu-client-unread-375.png` });
  expect(await smallTargets(client, "header")).toEqual([]);
});
