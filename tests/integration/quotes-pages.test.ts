/**
 * Quotes on the pages (issue 33): Compare Quotes' loader (only the gig's client; the figures,
 * marks and an expired quote), the response-time query (fewer than 3 purchases: nothing; the
 * median; only the last 90 days) as the profile and Browse Talent show it, and the digger's
 * numbers on /my-leads' 'Your spending' card.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPARE_TEXTS } from "../../core/quote-views.ts";
import { QUOTE_MESSAGES } from "../../core/quotes.ts";
import { diggerProfiles, hires, leadPurchases, messages, quotes, refunds, threads } from "../../server/db/schema.ts";
import { browseDiggers, browseFilters } from "../../server/diggers/browse.ts";
import { leadLedger } from "../../server/leads/my-leads.ts";
import { quoteComparison } from "../../server/quotes/compare.ts";
import { acceptQuote } from "../../server/quotes/decide.ts";
import { responseTimeOf } from "../../server/quotes/response-time.ts";
import { signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase, type TestDigger } from "../support/leads.ts";
import { sendQuoteForm } from "../support/quotes.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpOperator(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const HOUR = 3_600_000;


describe("Compare Quotes", () => {
  it("shows the gig's client every open quote with its figures, the marks and an expired one without Accept; nobody else", async () => {
    const first = await boughtLead(app);
    const second = await boughtLead(app, { client: first.client, gig: first.gig });
    const third = await boughtLead(app, { client: first.client, gig: first.gig });
    // The second digger answered first (a message before the quote); the third's quote expired.
    await second.digger.client.post(`/messages/${second.threadId}`, { intent: "send", body: "Hello! I can come Monday.", js: "1" });
    const fixed = await sendQuoteForm(app, first.digger.id, first.threadId, { type: "fixed", amount: "1250", included: "Everything", "lineItems.0.description": "Boards", "lineItems.0.amount": "1000", "lineItems.1.description": "Labour", "lineItems.1.amount": "250" });
    const estimate = await sendQuoteForm(app, second.digger.id, second.threadId, { type: "estimate", low: "900", high: "1400", included: "Labour" });
    const expired = await sendQuoteForm(app, third.digger.id, third.threadId, { type: "fixed", amount: "10", included: "Cheap" });
    await db().update(quotes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(quotes.id, expired.quoteId));
    // Make the second digger's reply measurably faster than the first's quote.
    await db().update(messages).set({ createdAt: new Date(Date.now() - 10 * 60_000) }).where(eq(messages.threadId, second.threadId));
    await db().update(leadPurchases).set({ purchasedAt: new Date(Date.now() - HOUR) }).where(eq(leadPurchases.gigId, first.gig.id));

    const page = await quoteComparison(db(), first.client.id, first.gig.id);
    expect(page.quotes.map((quote) => quote.id)).toEqual([fixed.quoteId, estimate.quoteId, expired.quoteId]);
    const [a, b, c] = page.quotes;
    expect(a).toMatchObject({ priceText: "$1,250.00", comparableCents: 125_000, expired: false, lineItems: [{ description: "Boards", amountCents: 100_000 }, { description: "Labour", amountCents: 25_000 }] });
    expect(b).toMatchObject({ priceText: "$900.00 to $1,400.00", comparableCents: 115_000, threadId: second.threadId, digger: { totalRatings: 0, hires: 0, verified: false } });
    expect(c!.expired).toBe(true);
    // The lowest comparable figure among the quotes not expired; the quickest first answer.
    expect(page.lowestId).toBe(estimate.quoteId);
    expect(page.fastestId).toBe(estimate.quoteId);
    expect(b!.answeredAfterMs!).toBeLessThan(a!.answeredAfterMs!);
    expect(page.accepted).toBeNull();

    // Through the page: the client sees it; the other client, the diggers and an operator get the 404 page; a visitor signs in.
    const path = `/my-gigs/${first.gig.id}/quotes`;
    const html = decodeHtml(await (await first.client.client.get(path)).text());
    expect(html).toContain(COMPARE_TEXTS.title);
    expect(html).toContain(QUOTE_MESSAGES.lowestPrice);
    expect(html).toContain(QUOTE_MESSAGES.midpoint);
    expect(html).toContain("Expired ");
    const stranger = await signUpAs(app, "consumer", "Sam Stranger");
    for (const outsider of [stranger, first.digger, second.digger, operator]) {
      const response = await outsider.client.get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("Everything");
      expect((await outsider.client.get(`${path}.data`)).status).toBe(404);
    }
    expect(location(await new SessionClient(app).get(path))).toMatch(/^\/auth\?redirect=/);
    expect((await first.client.client.get(`/my-gigs/not-a-uuid/quotes`)).status).toBe(404);

    // My Gigs counts the open quotes (not the expired one); after an accept the page names it and the others are 'Not chosen'.
    expect(decodeHtml(await (await first.client.client.get("/my-gigs")).text())).toContain(COMPARE_TEXTS.link(2));
    await acceptQuote(app.services, first.client.id, second.threadId, estimate.quoteId);
    const after = await quoteComparison(db(), first.client.id, first.gig.id);
    expect(after.accepted).toMatchObject({ priceText: "$900.00 to $1,400.00" });
    expect(after.quotes).toEqual([]);
    expect(decodeHtml(await (await first.client.client.get(path)).text())).toContain("Close gig as filled");
  });
});

describe("response time", () => {
  /** A purchase by `digger` `hoursAgo` with their first message `answerHours` later (null: none). */
  async function purchaseAnswered(digger: TestDigger, hoursAgo: number, answerHours: number | null) {
    const client = await signUpAs(app, "consumer", "Rita Requester");
    const gig = await insertGig(app, client.id);
    const purchasedAt = new Date(Date.now() - hoursAgo * HOUR);
    const purchase = await insertPurchase(app, gig, digger.diggerId, { purchasedAt, createdAt: purchasedAt });
    const [thread] = await db().select().from(threads).where(eq(threads.purchaseId, purchase.id));
    if (answerHours !== null) await db().insert(messages).values({ threadId: thread!.id, senderId: digger.id, body: "Hi", createdAt: new Date(purchasedAt.getTime() + answerHours * HOUR) });
  }

  it("says nothing below 3 purchases, reads the median, counts only the last 90 days, and shows it on the profile and Browse Talent", async () => {
    const digger = await diggerWithProfile(app);
    await purchaseAnswered(digger, 50, 0.5);
    await purchaseAnswered(digger, 40, 0.25);
    expect(await responseTimeOf(db(), digger.diggerId)).toBeNull();
    await purchaseAnswered(digger, 30, 3);
    expect(await responseTimeOf(db(), digger.diggerId)).toBe("Usually responds within an hour");
    // Two more slow ones: the median of 0.25, 0.5, 3, 5, never is 3 hours.
    await purchaseAnswered(digger, 20, 5);
    await purchaseAnswered(digger, 48, null);
    expect(await responseTimeOf(db(), digger.diggerId)).toBe("Usually responds within a few hours");
    const profile = decodeHtml(await (await new SessionClient(app).get(`/digger/${digger.diggerId}`)).text());
    expect(profile).toContain("Usually responds within a few hours");
    const [{ handle }] = (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId))) as [{ handle: string }];
    const cards = await browseDiggers(db(), browseFilters(new URLSearchParams({ q: handle })), null);
    expect(cards.items.find((card) => card.id === digger.diggerId)?.responseTime).toBe("Usually responds within a few hours");

    // Purchases older than 90 days do not count: a digger with only old fast answers shows nothing.
    const veteran = await diggerWithProfile(app);
    for (const hoursAgo of [91 * 24, 95 * 24, 120 * 24]) await purchaseAnswered(veteran, hoursAgo, 0.1);
    await purchaseAnswered(veteran, 10, 0.1);
    expect(await responseTimeOf(db(), veteran.diggerId)).toBeNull();
    // Slower than a day: no figure at all.
    const slow = await diggerWithProfile(app);
    for (const hoursAgo of [100, 200, 300]) await purchaseAnswered(slow, hoursAgo, 30);
    expect(await responseTimeOf(db(), slow.diggerId)).toBeNull();
  });
});

describe("the digger's numbers", () => {
  it("counts quotes sent (a revision is the same quote), accepted, hires and net spent per hire; '—' without hires", async () => {
    const lead = await boughtLead(app);
    const empty = await leadLedger(db(), lead.digger.diggerId);
    expect(empty.allTime).toMatchObject({ quotesSent: 0, quotesAccepted: 0, hires: 0, netPerHireCents: null });
    const html = decodeHtml(await (await lead.digger.client.get("/my-leads")).text());
    expect(html).toContain("Net spent per hire");
    expect(html).toContain("—");

    const first = await sendQuoteForm(app, lead.digger.id, lead.threadId, { type: "fixed", amount: "500", included: "All" });
    await lead.digger.client.post(`/messages/${lead.threadId}`, { intent: "revise-quote", quoteId: first.quoteId, type: "fixed", amount: "450", included: "All" });
    const [current] = (await db().select().from(quotes).where(eq(quotes.threadId, lead.threadId))).filter((quote) => quote.status === "open");
    await acceptQuote(app.services, lead.client.id, lead.threadId, current!.id);

    // A second lead, bought 40 days ago, partly refunded, hired long ago: all-time only.
    const old = await signUpAs(app, "consumer", "Olga Old");
    const oldGig = await insertGig(app, old.id);
    const at = new Date(Date.now() - 40 * 24 * HOUR);
    const oldPurchase = await insertPurchase(app, oldGig, lead.digger.diggerId, { purchasedAt: at, createdAt: at });
    await db().insert(hires).values({ gigId: oldGig.id, diggerId: lead.digger.diggerId, createdAt: at });
    await db().insert(refunds).values({ leadPurchaseId: oldPurchase.id, reason: "duplicate_payment", amountCents: 100, status: "succeeded", providerRefundId: `test_re_${oldPurchase.id}`, completedAt: at, createdAt: at });

    const ledger = await leadLedger(db(), lead.digger.diggerId);
    expect(ledger.last30Days).toMatchObject({ quotesSent: 1, quotesAccepted: 1, hires: 1, netPerHireCents: ledger.last30Days.netCents });
    expect(ledger.allTime).toMatchObject({ quotesSent: 1, quotesAccepted: 1, hires: 2, netPerHireCents: Math.round(ledger.allTime.netCents / 2) });
    expect(ledger.allTime.netCents).toBe(ledger.allTime.spentCents - 100);
    expect(ledger.last30Days.netCents).toBe(ledger.last30Days.spentCents);
  });
});
