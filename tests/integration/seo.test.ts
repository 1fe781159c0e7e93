import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diggerProfiles, gigs } from "../../server/db/schema.ts";
import { seedDemoData } from "../../server/db/seed/index.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let app: TestApp;
let openGig: { id: string; title: string };
let closedGig: { id: string };
let digger: { id: string; handle: string };

beforeAll(async () => {
  app = await createTestApp();
  await seedDemoData(app.database.db);
  const db = app.database.db;
  [openGig] = await db.select({ id: gigs.id, title: gigs.title }).from(gigs).where(eq(gigs.status, "open")).limit(1) as [typeof openGig];
  await db.update(gigs).set({ status: "closed" }).where(eq(gigs.id, (await db.select({ id: gigs.id }).from(gigs).offset(1).limit(1))[0]!.id));
  [closedGig] = (await db.select({ id: gigs.id }).from(gigs).where(eq(gigs.status, "closed")).limit(1)) as [typeof closedGig];
  [digger] = (await db.select({ id: diggerProfiles.id, handle: diggerProfiles.handle }).from(diggerProfiles).limit(1)) as [typeof digger];
});
afterAll(() => app.close());

describe("sitemap.xml", () => {
  it("lists the public pages, open gigs and digger profiles, and no closed gig", async () => {
    const response = await app.request("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    for (const path of ["/", "/browse-gigs", "/browse-diggers", "/how-it-works", "/terms", "/privacy"]) {
      expect(xml).toContain(`<loc>${app.config.publicUrl}${path}</loc>`);
    }
    expect(xml).toContain(`<loc>${app.config.publicUrl}/gig/${openGig.id}</loc>`);
    expect(xml).toContain(`<loc>${app.config.publicUrl}/digger/${digger.id}</loc>`);
    expect(xml).not.toContain(closedGig.id);
    expect(xml.match(/<url>/g)?.length).toBe(7 + 49 + 20);
  });
});

describe("robots.txt", () => {
  it("allows the public site, keeps private pages out, and names the sitemap", async () => {
    const response = await app.request("/robots.txt");
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain("User-agent: *");
    for (const path of ["/account", "/my-gigs", "/my-leads", "/checkout/", "/api/"]) expect(text).toContain(`Disallow: ${path}`);
    expect(text).toContain(`Sitemap: ${app.config.publicUrl}/sitemap.xml`);
  });
});

describe("Open Graph", () => {
  it("describes gig and digger pages with absolute addresses", async () => {
    const gigHtml = await (await app.request(`/gig/${openGig.id}`)).text();
    expect(gigHtml).toContain(`<meta property="og:url" content="${app.config.publicUrl}/gig/${openGig.id}"/>`);
    expect(gigHtml).toContain(`<meta property="og:title" content="${openGig.title.replaceAll("&", "&amp;").replaceAll("'", "&#x27;")}"/>`);
    const diggerHtml = await (await app.request(`/digger/${digger.id}`)).text();
    expect(diggerHtml).toContain(`<meta property="og:url" content="${app.config.publicUrl}/digger/${digger.id}"/>`);
    expect(diggerHtml).toMatch(new RegExp(`<meta property="og:title" content="${digger.handle}`));
  });
});
