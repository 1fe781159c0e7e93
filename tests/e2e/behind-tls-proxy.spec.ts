/**
 * The documented production setup in a browser (issue 30, finding 5): the built server behind
 * a proxy that ends TLS, at an https PUBLIC_URL (tests/support/tls-site.ts: production mode on
 * PostgreSQL when TEST_DATABASE_URL is set, as in CI; else local mode). Signing up and sending
 * the contact form work as on http: before the fix, React Router refused every form with 400.
 * The proxy's certificate is the test's own, self-signed: Chromium is told to accept it.
 */
import { randomUUID } from "node:crypto";
import { startTlsSite, type TlsSite } from "../support/tls-site.ts";
import { expect, test } from "./fixtures.ts";

let site: TlsSite;

test.use({ ignoreHTTPSErrors: true });
// One site for the file, started by the one worker that runs it.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  site = await startTlsSite();
});
test.afterAll(async () => {
  await site?.stop();
});

test("signs up and sends the contact form on the https site", async ({ page }) => {
  await page.goto(`${site.url}/auth?redirect=%2Fcontact`);
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByRole("radio", { name: /^Consumer/ }).click();
  await page.getByLabel("Full Name").fill("Tess Tls");
  await page.getByLabel("Email").fill(`tls-${randomUUID()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("secret-pass");
  await page.getByLabel("I confirm I am 18 or older").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page.getByText("Account created! Redirecting...")).toBeVisible();
  await expect(page).toHaveURL(`${site.url}/contact`);

  // The session cookie is Secure, under the name only https may set.
  const cookies = await page.context().cookies(site.url);
  expect(cookies.find((c) => c.name === "__Secure-dg.session_token")).toMatchObject({ secure: true, httpOnly: true });

  await page.getByLabel("Name", { exact: true }).fill("Tess Tls");
  await page.getByLabel("Email", { exact: true }).fill("tess@example.com");
  await page.getByLabel("Subject", { exact: true }).fill(`Behind the proxy ${randomUUID()}`);
  await page.getByLabel("Message", { exact: true }).fill("Does the contact form work over HTTPS?");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully! We'll get back to you soon.")).toBeVisible();
});
