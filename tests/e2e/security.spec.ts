import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newPage, test, waitForHydration } from "./fixtures.ts";
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

/**
 * A shared device (issue 45): after Sign Out, Back must not show the private thread the browser
 * saw before. Signed-in answers are `private, no-store` and the sign-out clears the site's cache
 * (`Clear-Site-Data: "cache"`), so Back asks the server again, which answers with the sign-in page.
 */
for (const javaScriptEnabled of [true, false]) {
  test(`Back after Sign Out shows the sign-in page, not the thread (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = javaScriptEnabled ? waitForHydration(await context.newPage()) : await context.newPage();
    await signIn(page, DEMO.digger, DEMO.password, "/messages");
    const threadUrl = await page.locator('a[href^="/messages/"]').first().getAttribute("href");
    await page.goto(threadUrl!);
    const secret = `Private note ${randomUUID().slice(0, 8)}`;
    await page.getByLabel("Message").fill(secret);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByRole("log").getByText(secret)).toBeVisible();
    // The thread as a document of its own, with the note in it, as the browser last saw it;
    // then the home page, typed in (a document of its own too), where the user signs out.
    await page.goto(threadUrl!);
    await expect(page.getByRole("log").getByText(secret)).toBeVisible();
    await page.goto("/");
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    // Back past the home page to the thread: the server is asked again and answers with the sign-in page.
    for (let step = 0; step < 3 && new URL(page.url()).pathname === "/"; step++) await page.goBack();
    await expect(page).toHaveURL(`/auth?redirect=${encodeURIComponent(threadUrl!)}`);
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
    await context.close();
  });
}
