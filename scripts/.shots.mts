import { chromium, type Page } from "@playwright/test";
const base = "http://127.0.0.1:3303";
const out = "/tmp/notify-shots";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
async function signIn(email: string, width = 1280) {
  const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(`${base}/auth`);
  await page.waitForSelector("html[data-hydrated]");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("digsandgigs-demo");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(`${base}/`);
  return page;
}
const hydrate = (p: Page) => p.waitForSelector("html[data-hydrated]");
if (process.argv[2] !== "only-shots") {
  const title = `Hang three shelves ${Date.now() % 100000}`;
  const client = await signIn("consumer@example.com");
  await client.goto(`${base}/post-gig`); await hydrate(client);
  await client.getByLabel("Project Title").fill(title);
  await client.getByLabel("Project Description").fill("Three floating oak shelves on a brick wall in the living room, anchors included.");
  await client.getByLabel("Location").fill("Tucson, AZ");
  await client.getByLabel("Project Timeline").fill("This week");
  await client.getByLabel("Category").selectOption({ index: 1 });
  await client.getByLabel("Minimum Budget ($)").fill("2000");
  await client.getByLabel("Contact Preferences").fill("Text me");
  await client.getByLabel(/I agree to the/).check();
  await client.getByRole("button", { name: "Post Gig" }).click();
  await client.getByText("Gig posted successfully!").waitFor();
  const digger = await signIn("digger@example.com");
  await digger.goto(`${base}/browse-gigs?q=${encodeURIComponent(title)}`); await hydrate(digger);
  await digger.getByRole("link", { name: title }).click();
  await digger.getByRole("button", { name: "Purchase Lead" }).click();
  await digger.waitForURL(/checkout/); await hydrate(digger);
  await digger.getByRole("button", { name: "Pay $50.00" }).click();
  await digger.getByText("Payment successful!").waitFor();
  await digger.goto(`${base}/my-leads`); await hydrate(digger);
  const lead = digger.getByRole("listitem").filter({ hasText: title });
  await lead.getByRole("button", { name: "Report Issue" }).click();
  const dialog = digger.getByRole("dialog");
  await dialog.getByRole("combobox").first().click().catch(() => undefined);
  await digger.screenshot({ path: `${out}/report-dialog.png` });
}
for (const width of [375, 1280]) {
  const client = await signIn("consumer@example.com", width);
  await client.goto(`${base}/my-gigs`); await hydrate(client);
  await client.getByRole("button", { name: /^Notifications/ }).click();
  await client.getByRole("dialog", { name: "Notifications" }).getByRole("link").first().waitFor();
  await client.screenshot({ path: `${out}/bell-${width}.png` });
  await client.goto(`${base}/notifications`); await hydrate(client);
  await client.screenshot({ path: `${out}/notifications-${width}.png`, fullPage: true });
  await client.goto(`${base}/dev/mail`); await hydrate(client);
  await client.waitForTimeout(1000);
  await client.screenshot({ path: `${out}/devmail-${width}.png` });
}
const page = await (await browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
const res = await page.request.get(`${base}/dev/mail`);
const html = await res.text();
const m = /srcDoc="([^"]*)"/i.exec(html) ?? /srcdoc="([^"]*)"/i.exec(html);
const doc = (m?.[1] ?? "").replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
await page.setContent(doc);
await page.screenshot({ path: `${out}/email-375.png`, fullPage: true });
await browser.close();
