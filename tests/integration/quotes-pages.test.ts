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
import { quoteComparison } from "../../server/conversations/compare-quotes.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { responseTimeOf } from "../../server/conversations/response-time.ts";
import { withdrawQuote } from "../../server/conversations/withdraw-quote.ts";
import { signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase, type TestDigger } from "../support/leads.ts";
import { reviseQuoteForm, sendQuoteForm } from "../support/quotes.ts";
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
    // Among the quotes not expired: no 'Lowest price' (the estimate may come to $1,400, above the
    // fixed $1,250; issue 47); the quickest first answer.
    expect(page.lowestIds).toEqual([]);
    expect(page.fastestIds).toEqual([estimate.quoteId]);
    expect(b!.answeredAfterMs!).toBeLessThan(a!.answeredAfterMs!);
    expect(page.accepted).toBeNull();

    // Through the page: the client sees it; the other client, the diggers and an operator get the 404 page; a visitor signs in.
    const path = `/my-gigs/${first.gig.id}/quotes`;
    const html = decodeHtml(await (await first.client.client.get(path)).text());
    expect(html).toContain(COMPARE_TEXTS.title);
    expect(html).not.toContain(QUOTE_MESSAGES.lowestPrice);
    expect(html).toContain(QUOTE_MESSAGES.fastestReply);
    expect(html).toContain(QUOTE_MESSAGES.midpoint);
    // Each quote's type labelled, each handle to the profile and to the thread (issue 47).
    expect(html).toMatch(/>Type<\/th>[\s\S]*>Fixed price<[\s\S]*>Estimate</);
    expect(html).toContain(`href="/digger/${a!.digger.id}"`);
    expect(html).toContain(`href="/messages/${second.threadId}"`);
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
    const accepted = decodeHtml(await (await first.client.client.get(path)).text());
    expect(accepted).toContain("Close gig as filled");
    // 'Keep it open for more diggers' posts My Gigs' keep-open intent with the gig (issue 47).
    expect(accepted).toMatch(/<button(?=[^>]*name="intent")(?=[^>]*value="keep-open")[^>]*>Keep it open for more diggers<\/button>/);
    expect(accepted).toContain(`name="gigId" value="${first.gig.id}"`);
    expect(accepted).toContain("Not now");
  });

  /** One gig with a quote from a new digger per entry; each digger's first answer `minutes` after buying. */
  async function quotedGig(entries: Array<{ fields: Record<string, string>; minutes: number }>) {
    const leads = [await boughtLead(app)];
    for (let n = 1; n < entries.length; n++) leads.push(await boughtLead(app, { client: leads[0]!.client, gig: leads[0]!.gig }));
    const ids: string[] = [];
    for (const [n, entry] of entries.entries()) {
      const lead = leads[n]!;
      ids.push((await sendQuoteForm(app, lead.digger.id, lead.threadId, { included: "The work", ...entry.fields })).quoteId);
      const [quote] = await db().select({ createdAt: quotes.createdAt }).from(quotes).where(eq(quotes.id, ids[n]!));
      await db()
        .update(leadPurchases)
        .set({ purchasedAt: new Date(quote!.createdAt.getTime() - entry.minutes * 60_000) })
        .where(eq(leadPurchases.id, (await db().select({ id: threads.purchaseId }).from(threads).where(eq(threads.id, lead.threadId)))[0]!.id));
    }
    const page = await quoteComparison(db(), leads[0]!.client.id, leads[0]!.gig.id);
    const html = decodeHtml(await (await leads[0]!.client.client.get(`/my-gigs/${leads[0]!.gig.id}/quotes`)).text());
    return { ids, page, html };
  }

  it("marks 'Lowest price' only when it is lowest whatever an estimate comes to, and shows ties as ties (issue 47)", async () => {
    // An estimate of $1,100 to $1,600 against a fixed $1,450: either may be cheaper, no mark.
    const mixed = await quotedGig([
      { fields: { type: "estimate", low: "1100", high: "1600" }, minutes: 30 },
      { fields: { type: "fixed", amount: "1450" }, minutes: 90 },
    ]);
    expect(mixed.page.lowestIds).toEqual([]);
    expect(mixed.html).not.toContain(QUOTE_MESSAGES.lowestPrice);
    // A fixed $1,000 against the same estimate: lowest whatever it comes to.
    const below = await quotedGig([
      { fields: { type: "estimate", low: "1100", high: "1600" }, minutes: 30 },
      { fields: { type: "fixed", amount: "1000" }, minutes: 90 },
      { fields: { type: "hourly", rate: "50", hours: "30" }, minutes: 200 },
    ]);
    expect(below.page.lowestIds).toEqual([below.ids[1]]);
    expect(below.page.fastestIds).toEqual([below.ids[0]]);
    expect(below.html).toContain(`>${QUOTE_MESSAGES.lowestPrice}<`);
    expect(below.html).not.toContain(COMPARE_TEXTS.tie(QUOTE_MESSAGES.lowestPrice));
    // Two equal fixed prices, and two answers that read the same ('within 20 minutes'): ties, both marked.
    const tied = await quotedGig([
      { fields: { type: "fixed", amount: "900" }, minutes: 20 },
      { fields: { type: "fixed", amount: "900" }, minutes: 20 },
      { fields: { type: "estimate", low: "900", high: "1000" }, minutes: 60 },
    ]);
    expect(tied.page.lowestIds).toEqual([tied.ids[0], tied.ids[1]]);
    expect(tied.page.fastestIds).toEqual([tied.ids[0], tied.ids[1]]);
    expect(tied.html.split(COMPARE_TEXTS.tie(QUOTE_MESSAGES.lowestPrice)).length - 1).toBe(2);
    expect(tied.html.split(COMPARE_TEXTS.tie(QUOTE_MESSAGES.fastestReply)).length - 1).toBe(2);
  });
});

/** A purchase by `digger` `hoursAgo` with their first message `answerHours` later (null: none), of a new client's gig or `clientId`'s. */
async function purchaseAnswered(digger: TestDigger, hoursAgo: number, answerHours: number | null, clientId?: string) {
  const gig = await insertGig(app, clientId ?? (await signUpAs(app, "consumer", "Rita Requester")).id);
  const purchasedAt = new Date(Date.now() - hoursAgo * HOUR);
  const purchase = await insertPurchase(app, gig, digger.diggerId, { purchasedAt, createdAt: purchasedAt });
  const [thread] = await db().select().from(threads).where(eq(threads.purchaseId, purchase.id));
  const [message] =
    answerHours === null
      ? []
      : await db()
          .insert(messages)
          .values({ threadId: thread!.id, senderId: digger.id, body: "Hi", createdAt: new Date(purchasedAt.getTime() + answerHours * HOUR) })
          .returning();
  return { purchase, threadId: thread!.id, purchasedAt, message: message! };
}

describe("response time", () => {
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

describe("response time counts only what still stands (issue 45, finding 8)", () => {
  /**
   * A digger with one purchase answered in half an hour and two more answered at once (`answered`):
   * counted, 'within an hour'; left out, the two are unanswered for two days and there is no label.
   */
  async function withTwoFastAnswers(answered: (digger: TestDigger, purchase: Awaited<ReturnType<typeof purchaseAnswered>>) => Promise<void>) {
    const digger = await diggerWithProfile(app);
    await purchaseAnswered(digger, 60, 0.5);
    for (const hoursAgo of [50, 40]) await answered(digger, await purchaseAnswered(digger, hoursAgo, 0.1));
    return digger;
  }
  const within = "Usually responds within an hour";
  /** A digger with one purchase answered in half an hour (two more answered and counted: 'within an hour'). */
  async function diggerAnsweredOnce() {
    const digger = await diggerWithProfile(app);
    await purchaseAnswered(digger, 60, 0.5);
    return digger;
  }

  it("counts a fast first message, not once an operator hid it or its sender's account deleted it", async () => {
    const counted = await withTwoFastAnswers(async () => {});
    expect(await responseTimeOf(db(), counted.diggerId)).toBe(within);
    const hidden = await withTwoFastAnswers(async (_, { message }) => {
      await db().update(messages).set({ hiddenAt: new Date(), hiddenBy: operator.id }).where(eq(messages.id, message.id));
    });
    expect(await responseTimeOf(db(), hidden.diggerId)).toBeNull();
    const deleted = await withTwoFastAnswers(async (_, { message }) => {
      await db().update(messages).set({ deletedAt: new Date(), body: "" }).where(eq(messages.id, message.id));
    });
    expect(await responseTimeOf(db(), deleted.diggerId)).toBeNull();
    // Shown on the profile the same way.
    expect(decodeHtml(await (await new SessionClient(app).get(`/digger/${counted.diggerId}`)).text())).toContain(within);
    expect(decodeHtml(await (await new SessionClient(app).get(`/digger/${hidden.diggerId}`)).text())).not.toContain("Usually responds");
  });

  /** A quote sent in the thread, dated `afterHours` after the purchase. */
  async function quoteAt(digger: TestDigger, { threadId, purchasedAt }: { threadId: string; purchasedAt: Date }, afterHours: number) {
    const { quoteId } = await sendQuoteForm(app, digger.id, threadId, { type: "fixed", amount: "500", included: "Everything" });
    await db().update(quotes).set({ createdAt: new Date(purchasedAt.getTime() + afterHours * HOUR) }).where(eq(quotes.id, quoteId));
    return quoteId;
  }

  it("counts a quote from its first version, not once it was withdrawn (revised first or not)", async () => {
    const quoted = async (digger: TestDigger, hoursAgo: number) => {
      const purchase = await purchaseAnswered(digger, hoursAgo, null);
      return { purchase, quoteId: await quoteAt(digger, purchase, 0.1) };
    };
    // Quoted at once, then revised a day later: the first version's time counts.
    const revised = await diggerAnsweredOnce();
    for (const hoursAgo of [50, 40]) {
      const { purchase, quoteId } = await quoted(revised, hoursAgo);
      const revision = await reviseQuoteForm(app, revised.id, purchase.threadId, quoteId, { type: "fixed", amount: "450", included: "Everything" });
      await db().update(quotes).set({ createdAt: new Date(purchase.purchasedAt.getTime() + 30 * HOUR) }).where(eq(quotes.id, revision.quoteId));
    }
    expect(await responseTimeOf(db(), revised.diggerId)).toBe(within);
    // Withdrawn: one at once, the other after a revision.
    const withdrawn = await diggerAnsweredOnce();
    const first = await quoted(withdrawn, 50);
    await withdrawQuote(app.services, withdrawn.id, first.purchase.threadId, first.quoteId);
    const second = await quoted(withdrawn, 40);
    const revision = await reviseQuoteForm(app, withdrawn.id, second.purchase.threadId, second.quoteId, { type: "fixed", amount: "450", included: "Everything" });
    await withdrawQuote(app.services, withdrawn.id, second.purchase.threadId, revision.quoteId);
    expect(await responseTimeOf(db(), withdrawn.diggerId)).toBeNull();
  });

  it("leaves out a purchase refunded in full, not one refunded in part", async () => {
    const refund = (purchase: { id: string; amountPaidCents: number }, amountCents: number, status: "pending" | "succeeded") =>
      db().insert(refunds).values({ leadPurchaseId: purchase.id, reason: "duplicate_payment", amountCents, status, completedAt: status === "succeeded" ? new Date() : null });
    const inPart = await withTwoFastAnswers(async (_, { purchase }) => {
      await refund(purchase, Math.floor(purchase.amountPaidCents / 2), "succeeded");
    });
    expect(await responseTimeOf(db(), inPart.diggerId)).toBe(within);
    // Refunded in full, paid or still on its way (a recorded refund is never taken back): only one purchase is left.
    let n = 0;
    const inFull = await withTwoFastAnswers(async (_, { purchase }) => {
      await refund(purchase, purchase.amountPaidCents, n++ === 0 ? "pending" : "succeeded");
    });
    expect(await responseTimeOf(db(), inFull.diggerId)).toBeNull();
  });

  it("says nothing until the purchases come from 3 different clients", async () => {
    const digger = await diggerWithProfile(app);
    const [one, two, three] = await Promise.all(["Cal One", "Cal Two", "Cal Three"].map((name) => signUpAs(app, "consumer", name)));
    for (const hoursAgo of [60, 50, 40]) await purchaseAnswered(digger, hoursAgo, 0.1, one!.id);
    expect(await responseTimeOf(db(), digger.diggerId)).toBeNull();
    await purchaseAnswered(digger, 30, 0.1, two!.id);
    expect(await responseTimeOf(db(), digger.diggerId)).toBeNull();
    const [{ handle }] = (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId))) as [{ handle: string }];
    const card = async () => (await browseDiggers(db(), browseFilters(new URLSearchParams({ q: handle })), null)).items.find((item) => item.id === digger.diggerId);
    expect((await card())?.responseTime).toBeNull();
    await purchaseAnswered(digger, 20, 0.1, three!.id);
    expect(await responseTimeOf(db(), digger.diggerId)).toBe(within);
    expect((await card())?.responseTime).toBe(within);
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
