import type { Page } from "@playwright/test";
import { expect, newPage, test } from "./fixtures.ts";
import { DEMO, signIn } from "./helpers.ts";

/**
 * The Content-Security-Policy is on, and every page still works with it: no script, style or
 * image is refused, and React Router hydrates (its router exists and has initialised).
 */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(`page error: ${error.message}`));
  return violations;
}

async function expectHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response!.headers()["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized), {
      message: `${path} hydrates`,
    })
    .toBe(true);
}

test("every public page hydrates with the Content-Security-Policy on, and nothing is refused", async ({ page }) => {
  const violations = watchViolations(page);
  await page.goto("/browse-gigs");
  const gig = await page.getByRole("list", { name: "Open gigs" }).getByRole("link").first().getAttribute("href");
  await page.goto("/browse-diggers");
  const digger = await page.locator('main a[href^="/digger/"]').first().getAttribute("href");
  for (const path of ["/", "/auth", "/auth?type=digger", "/browse-gigs", "/browse-diggers", gig!, digger!, "/contact", "/how-it-works", "/terms", "/privacy", "/reset-password", "/no-such-page"]) {
    await expectHydrated(page, path);
  }
  expect(violations).toEqual([]);
});

test("signed-in pages hydrate with the Content-Security-Policy on, for a consumer and a digger", async ({ browser }) => {
  for (const [email, paths] of [
    [DEMO.client, ["/my-gigs", "/post-gig", "/account"]],
    [DEMO.digger, ["/my-leads", "/digger-registration", "/reference-requests", "/account"]],
  ] as const) {
    const page = await newPage(browser);
    const violations = watchViolations(page);
    await signIn(page, email);
    for (const path of paths) await expectHydrated(page, path);
    expect(violations, email).toEqual([]);
    await page.context().close();
  }
});

test("a client-side navigation after hydration still works (inline data scripts carry the nonce)", async ({ page }) => {
  const violations = watchViolations(page);
  await page.goto("/");
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "kept"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "How It Works" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "How It Works" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("kept");
  expect(violations).toEqual([]);
});
