/**
 * What the digger sees of a gig's phone (issue 49): 'Phone verified' with its tick, 'Phone not
 * verified', or nothing (no phone, or phone verification off), on the gig page and its Browse
 * Gigs card before buying, never the number; beside the number once bought (the gig page, My
 * Leads); Browse Gigs' 'Verified phone only' filter, its count, its pages and its index.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { listOpenGigs, parseBrowseFilters } from "../../server/gigs/browse.ts";
import { phoneVerifications } from "../../server/db/schema.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, type TestDigger, type TestGig } from "../support/leads.ts";
import { plan, recordingDb, type Statement } from "../support/query-plans.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
let client: TestUser;
let digger: TestDigger;
/** In every title here: Browse Gigs' search finds these gigs only. */
const marker = `Tickmark${randomUUID().slice(0, 8)}`;
/** Numbers in E.164 (as a verification writes them) with digits found nowhere else on a page. */
const VERIFIED_PHONE = "+13035550147";
const UNVERIFIED_PHONE = "+13035550148";
let verified: TestGig;
let unverified: TestGig;
let noPhone: TestGig;

beforeAll(async () => {
  app = await createTestApp();
  client = await signUpAs(app, "consumer", "Tia Tickworth");
  digger = await diggerWithProfile(app);
  await app.database.db.insert(phoneVerifications).values({ userId: client.id, phone: VERIFIED_PHONE });
  verified = await insertGig(app, client.id, { title: `${marker} verified`, contactPhone: VERIFIED_PHONE });
  unverified = await insertGig(app, client.id, { title: `${marker} unverified`, contactPhone: UNVERIFIED_PHONE });
  noPhone = await insertGig(app, client.id, { title: `${marker} no phone`, contactPhone: null });
});
afterAll(() => app?.close());

/** The phone's digits in any format a page might write them: E.164, national, grouped. */
function mentionsNumber(body: string, phone: string): boolean {
  const digits = phone.replace(/\D/g, "");
  const national = digits.slice(1);
  return [phone, digits, national, `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`, `${national.slice(3, 6)}-${national.slice(6)}`, `555 0${national.slice(7)}`].some(
    (form) => body.includes(form),
  );
}

/** The gig page's HTML and its loader data, as `viewer` gets them. */
async function gigPage(viewer: SessionClient, gig: TestGig) {
  const html = decodeHtml(await (await viewer.get(`/gig/${gig.id}`)).text());
  const data = decodeHtml(await (await viewer.get(`/gig/${gig.id}.data`)).text());
  return { html, data };
}

/** With phone verification off (production without SMS_PROVIDER), for the length of `run`. */
async function verificationOff<T>(run: () => Promise<T>): Promise<T> {
  const sms = app.config.sms;
  app.config.sms = null;
  try {
    return await run();
  } finally {
    app.config.sms = sms;
  }
}

describe("the gig page before buying", () => {
  it("says 'Phone verified', 'Phone not verified' or nothing, to visitors and diggers alike, and never gives the number", async () => {
    for (const viewer of [new SessionClient(app), digger.client]) {
      const seen = {
        verified: await gigPage(viewer, verified),
        unverified: await gigPage(viewer, unverified),
        noPhone: await gigPage(viewer, noPhone),
      };
      expect(seen.verified.html).toContain(PHONE_TEXTS.verified);
      expect(seen.verified.html).not.toContain(PHONE_TEXTS.notVerified);
      expect(seen.verified.data).toContain('"verified"');
      expect(seen.unverified.html).toContain(PHONE_TEXTS.notVerified);
      expect(seen.unverified.data).toContain('"not_verified"');
      for (const text of [PHONE_TEXTS.verified, PHONE_TEXTS.notVerified]) expect(seen.noPhone.html).not.toContain(text);
      for (const [gig, phone] of [
        [seen.verified, VERIFIED_PHONE],
        [seen.unverified, UNVERIFIED_PHONE],
      ] as const) {
        expect(mentionsNumber(gig.html, phone), "HTML").toBe(false);
        expect(mentionsNumber(gig.data, phone), "loader data").toBe(false);
        // Nor when it was verified: only a status reaches the browser.
        expect(gig.data).not.toContain("phoneVerifiedAt");
      }
    }
  });

  it("says nothing of the phone while phone verification is off", async () => {
    await verificationOff(async () => {
      for (const gig of [verified, unverified]) {
        const { html } = await gigPage(digger.client, gig);
        expect(html).toContain(gig.title);
        for (const text of [PHONE_TEXTS.verified, PHONE_TEXTS.notVerified]) expect(html).not.toContain(text);
      }
    });
  });

  it("gives a buyer the number with its tick, and a buyer of an unverified number 'Phone not verified' beside it", async () => {
    const buyer = await diggerWithProfile(app);
    await insertPurchase(app, verified, buyer.diggerId);
    await insertPurchase(app, unverified, buyer.diggerId);
    const bought = await gigPage(buyer.client, verified);
    // Written as people write it; the links dial its digits.
    expect(bought.html).toContain("+1 303 555 0147");
    expect(bought.html).toContain(`href="tel:${VERIFIED_PHONE}"`);
    expect(bought.html).toContain(PHONE_TEXTS.verified);
    const boughtUnverified = await gigPage(buyer.client, unverified);
    expect(boughtUnverified.html).toContain("+1 303 555 0148");
    expect(boughtUnverified.html).toContain(PHONE_TEXTS.notVerified);
    // The other digger still has not bought it.
    expect(mentionsNumber((await gigPage(digger.client, verified)).html, VERIFIED_PHONE)).toBe(false);
  });
});

describe("Browse Gigs", () => {
  it("shows each card's status, never a number, and nothing while verification is off", async () => {
    const { items } = await listOpenGigs(app.database.db, parseBrowseFilters(new URLSearchParams({ q: marker })));
    const byId = new Map(items.map((gig) => [gig.id, gig.phoneStatus]));
    expect(byId.get(verified.id)).toBe("verified");
    expect(byId.get(unverified.id)).toBe("not_verified");
    expect(byId.get(noPhone.id)).toBeNull();

    for (const viewer of [new SessionClient(app), digger.client]) {
      const html = decodeHtml(await (await viewer.get(`/browse-gigs?q=${marker}`)).text());
      const data = decodeHtml(await (await viewer.get(`/browse-gigs.data?q=${marker}`)).text());
      expect(html).toContain(PHONE_TEXTS.verified);
      expect(html).toContain(PHONE_TEXTS.notVerified);
      expect(html).toContain(PHONE_TEXTS.verifiedOnlyFilter);
      for (const phone of [VERIFIED_PHONE, UNVERIFIED_PHONE]) {
        expect(mentionsNumber(html, phone)).toBe(false);
        expect(mentionsNumber(data, phone)).toBe(false);
      }
    }

    await verificationOff(async () => {
      const html = decodeHtml(await (await digger.client.get(`/browse-gigs?q=${marker}`)).text());
      expect(html).toContain(verified.title);
      for (const text of [PHONE_TEXTS.verified, PHONE_TEXTS.notVerified, PHONE_TEXTS.verifiedOnlyFilter]) expect(html).not.toContain(text);
      // The filter is not applied either: every gig is listed.
      const filtered = decodeHtml(await (await digger.client.get(`/browse-gigs?q=${marker}&phone=verified`)).text());
      expect(filtered).toContain(unverified.title);
      expect(filtered).toContain(noPhone.title);
    });
  });

  it("'Verified phone only' lists the gigs with a verified phone, counts them, and keeps the filter in its next page's link", async () => {
    const html = decodeHtml(await (await digger.client.get(`/browse-gigs?q=${marker}&phone=verified`)).text());
    expect(html).toContain(verified.title);
    expect(html).not.toContain(unverified.title);
    expect(html).not.toContain(noPhone.title);
    expect(html).toContain("1 gig");
    // The box is ticked as the address says.
    expect(html).toMatch(/<input[^>]*name="phone"[^>]*checked=""/);

    // More than a page: the next page's link keeps the filter, and its page has verified gigs only.
    const more = `Morepages${randomUUID().slice(0, 8)}`;
    const phone = "+13035550149";
    await app.database.db.insert(phoneVerifications).values({ userId: client.id, phone });
    for (let i = 0; i < 21; i++) await insertGig(app, client.id, { title: `${more} verified ${i}`, contactPhone: phone });
    await insertGig(app, client.id, { title: `${more} unverified`, contactPhone: UNVERIFIED_PHONE });
    const first = decodeHtml(await (await digger.client.get(`/browse-gigs?q=${more}&phone=verified`)).text());
    expect(first).toContain("21 gigs");
    const next = /href="(\/browse-gigs\?[^"]*cursor=[^"]*)"/.exec(first)?.[1];
    expect(next).toContain("phone=verified");
    const second = decodeHtml(await (await digger.client.get(next!)).text());
    expect(second).toContain(`${more} verified 0`);
    expect(second).not.toContain(`${more} unverified`);
  });

  it("'Verified phone only' walks gigs_open_verified_newest_idx newest first, without sorting", async () => {
    const recorded: Statement[] = [];
    const page = await listOpenGigs(recordingDb(app, recorded), { search: "", location: "", categoryIds: [], budget: null, verifiedPhone: true, cursor: null });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((gig) => gig.phoneStatus === "verified")).toBe(true);
    const statement = recorded.find((s) => /from "gigs"/.test(s.sql) && /order by/.test(s.sql));
    expect(statement).toBeDefined();
    const text = await plan(app, statement!);
    expect(text).toContain("gigs_open_verified_newest_idx");
    expect(text).not.toMatch(/Sort Key: .*created_at/);
  });
});

describe("My Leads", () => {
  it("shows 'Phone verified' beside a verified number and 'Phone not verified' beside another, from the gig's phone as it is now", async () => {
    const buyer = await diggerWithProfile(app);
    const later = await insertGig(app, client.id, { title: `${marker} verified later`, contactPhone: "+13035550150" });
    await insertPurchase(app, verified, buyer.diggerId);
    await insertPurchase(app, later, buyer.diggerId);
    const card = (html: string, title: string) => {
      const start = html.indexOf(`${title}</h2>`);
      return html.slice(start, html.indexOf("Purchase Date", start));
    };
    let html = decodeHtml(await (await buyer.client.get("/my-leads")).text());
    expect(card(html, verified.title)).toContain("+1 303 555 0147");
    expect(card(html, verified.title)).toContain(PHONE_TEXTS.verified);
    expect(card(html, later.title)).toContain("+1 303 555 0150");
    expect(card(html, later.title)).toContain(PHONE_TEXTS.notVerified);

    // The client verifies the number after the purchase: the card says so now.
    await app.database.db.insert(phoneVerifications).values({ userId: client.id, phone: "+13035550150" });
    html = decodeHtml(await (await buyer.client.get("/my-leads")).text());
    expect(card(html, later.title)).toContain(PHONE_TEXTS.verified);
    expect(card(html, later.title)).not.toContain(PHONE_TEXTS.notVerified);

    await verificationOff(async () => {
      const off = decodeHtml(await (await buyer.client.get("/my-leads")).text());
      expect(card(off, verified.title)).toContain("+1 303 555 0147");
      expect(card(off, verified.title)).not.toContain(PHONE_TEXTS.verified);
    });
  });
});
