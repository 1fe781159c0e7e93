/**
 * Pages rendered whole (app/entry.server.tsx, decision 0065): React Router's data for hydration
 * read before the render and written by React's string renderer, with the request's nonce;
 * the page sent with its length, importing the whole route manifest. What the stream renderer does instead for a page that leaves a
 * boundary to the browser: tests/unit/render-page.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEFT_TO_THE_BROWSER } from "../../app/render-page.server.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** The nonce of the page's Content-Security-Policy. */
const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

async function expectWholePage(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.headers.get("content-type")).toBe("text/html");
  expect(response.headers.get("content-length")).toBe(String(bytes.length));
  const html = bytes.toString();
  expect(html.startsWith("<!DOCTYPE html><html")).toBe(true);
  expect(html.trimEnd().endsWith("</html>")).toBe(true);
  expect(html).not.toContain(LEFT_TO_THE_BROWSER);
  // React Router's data, enqueued and closed by scripts that carry the request's nonce.
  const nonce = nonceOf(response);
  expect(nonce).toBeTruthy();
  expect(html).toContain(`<script nonce="${nonce}">window.__reactRouterContext.streamController.enqueue(`);
  expect(html).toContain(`<script nonce="${nonce}">window.__reactRouterContext.streamController.close();</script>`);
  return html;
}

describe("pages rendered whole", () => {
  it("a signed-in page, with its user's data", async () => {
    const digger = await signUpAs(app, "digger", "Wanda Whole");
    const response = await digger.client.get("/notifications");
    expect(response.status).toBe(200);
    const html = await expectWholePage(response);
    expect(html).toContain("Wanda Whole");
    expect(html).toContain('\\"routes/notifications\\"');
  });

  it("a visitor's page, whole, with the data its loaders gave", async () => {
    const html = await expectWholePage(await app.request("/browse-gigs"));
    expect(html).toContain("Browse Gigs");
    expect(html).toContain('\\"routes/browse-gigs\\"');
  });

  it("imports the whole route manifest (decision 0088): none of it written into the page, and no /__manifest to answer", async () => {
    const html = await expectWholePage(await app.request("/browse-gigs"));
    expect(html).toMatch(/import "\/assets\/manifest-[\w-]+\.js"/);
    expect(html).not.toContain("window.__reactRouterManifest =");
    // Lazy route discovery's endpoint answers route patches; with the whole manifest it is a page like any unknown one.
    const patches = await app.request("/__manifest?p=%2Fmy-leads&version=x");
    expect(patches.status).toBe(404);
    expect(patches.headers.get("content-type")).toBe("text/html");
  });

  it("a page whose loader answered 404 renders its error page whole, with the status", async () => {
    const response = await app.request("/gigs/00000000-0000-4000-8000-000000000000");
    expect(response.status).toBe(404);
    await expectWholePage(response);
  });
});
