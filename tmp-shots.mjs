import { chromium } from "playwright-core";
const base = "http://127.0.0.1:3203";
const GIG = "Replace rotted deck boards and a wobbly railing";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
async function signedIn(email, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/auth?redirect=%2F`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("digsandgigs-demo");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(`${base}/`);
  return page;
}
const out = (name) => `/work/shots/c/${name}.png`;
for (const width of [375, 1280]) {
  const digger = await signedIn("digger@example.com", width);
  await digger.goto(`${base}/browse-gigs?q=${encodeURIComponent(GIG)}`);
  await digger.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const card = digger.getByRole("listitem").filter({ hasText: GIG }).first();
  await card.screenshot({ path: out(`browse-card-${width}`) });
  await card.getByRole("link", { name: GIG }).click();
  await digger.getByRole("heading", { level: 1, name: GIG }).waitFor();
  await digger.screenshot({ path: out(`gig-page-${width}`), fullPage: true });
  await digger.getByRole("region", { name: "About this client" }).screenshot({ path: out(`gig-record-${width}`) });
  await digger.getByRole("region", { name: "Client reviews" }).screenshot({ path: out(`gig-client-reviews-${width}`) });
  if (width === 375) {
    // Report one (the form opened with JavaScript), for the queue's screenshot.
    const first = digger.getByRole("region", { name: "Client reviews" }).getByRole("listitem").first();
    await first.getByRole("link", { name: "Report" }).click();
    await first.getByLabel("Reason").fill("This reads like it is about a different client.");
    await first.screenshot({ path: out(`gig-report-form-${width}`) });
    await first.getByRole("button", { name: "Report Review" }).click();
    await first.getByText("Review reported").waitFor();
    await first.screenshot({ path: out(`gig-reported-${width}`) });
  }
  const client = await signedIn("consumer@example.com", width);
  await client.goto(`${base}/account#client-reviews`);
  await client.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await client.getByRole("region", { name: "Your record with diggers" }).screenshot({ path: out(`account-record-${width}`) });
  await client.getByRole("region", { name: "Client reviews" }).screenshot({ path: out(`account-client-reviews-${width}`) });
  await client.screenshot({ path: out(`account-page-${width}`), fullPage: true });
  const operator = await signedIn("operator@example.com", width);
  await operator.goto(`${base}/ops/reviews`);
  await operator.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await operator.screenshot({ path: out(`ops-reviews-${width}`), fullPage: true });
}
await browser.close();
