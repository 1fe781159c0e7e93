/**
 * /my-leads: the guards and their messages, a digger's completed purchases newest first with
 * the client's contact details, pagination, and the load failure. Every test that shows
 * contact details also checks that nobody else gets them: not in the HTML, not in the
 * .data response, not on any page a digger who has not bought the lead can reach. The ledger
 * at the top sums completed purchases and succeeded refunds.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../server/db/client.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { writeToBeCoveredText } from "../../core/lead-guarantee.ts";
import { formatPrice } from "../../core/money.ts";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { coveredText, GUARANTEE_TEXTS, GUARANTEE_WRITE_HOURS } from "../../core/reply-guarantee.ts";
import { gigs, hires, leadIssues, leadPurchases, refunds, threads } from "../../server/db/schema.ts";
import { completeCheckout } from "../../server/leads/fulfilment.ts";
import { leadLedger, listMyLeads } from "../../server/leads/my-leads.ts";
import { readerTime } from "../../server/reader-time.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { moveGuaranteeBack, say } from "../support/guarantee.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase, topLevelCategoryId, type TestDigger } from "../support/leads.ts";
import { sendQuoteForm } from "../support/quotes.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const page = async (client: SessionClient, path = "/my-leads") => decodeHtml(await (await client.get(path)).text());
const HOUR = 3_600_000;
/** The ledger's figures of the reply guarantee (issue 48) when it refunded nothing. */
const noGuarantee = { guaranteeRefunds: 0, guaranteeRefundedCents: 0 };

describe("/my-leads guards", () => {
  it("sends visitors to the digger sign-in with 'Please sign in to view your leads', and back here after", async () => {
    const visitor = new SessionClient(app);
    const response = await visitor.get("/my-leads");
    expect(location(response)).toBe("/auth?type=digger&redirect=/my-leads");
    expect(await page(visitor, "/auth?type=digger&redirect=/my-leads")).toContain("Please sign in to view your leads");
  });

  it("sends a digger without a profile to /digger-registration with 'Digger profile not found'", async () => {
    const digger = await signUpAs(app, "digger");
    expect(location(await digger.client.get("/my-leads"))).toBe("/digger-registration");
    expect(await page(digger.client, "/")).toContain("Digger profile not found");
  });

  it("turns a consumer away with 'My Leads is for diggers' (they cannot register as a digger)", async () => {
    const clientUser = await signUpAs(app, "consumer");
    expect(location(await clientUser.client.get("/my-leads"))).toBe("/");
    expect(await page(clientUser.client, "/")).toContain("My Leads is for diggers");
  });

  it("refuses a report from a visitor, a consumer and a digger without a profile the same way", async () => {
    const fields = { intent: "report-issue", purchaseId: crypto.randomUUID(), issueType: "mistake", description: "x" };
    expect(location(await new SessionClient(app).post("/my-leads", fields))).toBe("/auth?type=digger&redirect=/my-leads");
    expect(location(await (await signUpAs(app, "consumer")).client.post("/my-leads", fields))).toBe("/");
    expect(location(await (await signUpAs(app, "digger")).client.post("/my-leads", fields))).toBe("/digger-registration");
  });
});

describe("listing my leads", () => {
  it("shows the empty state with Browse Available Gigs", async () => {
    const digger = await diggerWithProfile(app);
    const html = await page(digger.client);
    expect(html).toContain("You haven't purchased any leads yet.");
    expect(html).toMatch(/<a[^>]*href="\/browse-gigs"[^>]*>Browse Available Gigs<\/a>/);
  });

  it("shows each completed purchase, newest first, with the gig, the client's contact details, the amount and Send Email", async () => {
    const client = await signUpAs(app, "consumer", "Casey Client-Jones");
    const digger = await diggerWithProfile(app);
    const older = await insertGig(app, client.id, { budgetMinCents: 2_000_000, budgetMaxCents: null, title: "Older gig: rebuild the garden wall" });
    const newer = await insertGig(app, client.id, { budgetMinCents: null, budgetMaxCents: 300_000, contactPreferences: null });
    const pending = await insertGig(app, client.id);
    await insertPurchase(app, older, digger.diggerId, { purchasedAt: new Date("2026-01-02T10:00:00Z") });
    await insertPurchase(app, newer, digger.diggerId, { purchasedAt: new Date("2026-03-04T10:00:00Z") });
    await insertPurchase(app, pending, digger.diggerId, { status: "pending" });

    const html = await page(digger.client);
    expect(html.indexOf(newer.title)).toBeGreaterThan(-1);
    expect(html.indexOf(newer.title)).toBeLessThan(html.indexOf(older.title));
    expect(html).not.toContain(pending.title);
    for (const text of [older.description, "From $20,000", "Up to $3,000", older.location, older.timeline, older.contactPreferences!]) {
      expect(html).toContain(text);
    }
    expect(html).toContain("Casey Client-Jones");
    expect(html).toContain(client.email);
    expect(html).toContain("$100.00"); // 0.5% of $20,000
    expect(html).toContain("$50.00");
    expect(html).toContain("Jan 2, 2026");
    expect(html).toContain("Mar 4, 2026");
    expect(html).toContain(`href="mailto:${client.email}?subject=${encodeURIComponent(`Regarding your gig: ${older.title}`)}"`);
    expect(html.match(/>Send Email</g)).toHaveLength(2);
    // Both were bought months ago: past the 14-day report window (docs/decisions/0020-refund-deadlines.md).
    expect(html.match(/>Report window closed (Jan 16|Mar 18), 2026</g)).toHaveLength(2);
    expect(html).not.toContain(pending.contactPreferences!);
  });

  it("never shows a digger another digger's leads: not in the HTML, not in /my-leads.data, not by cursor", async () => {
    const client = await signUpAs(app, "consumer", "Morgan Private-Client");
    const owner = await diggerWithProfile(app);
    const other = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id);
    await insertPurchase(app, gig, owner.diggerId);

    expect(await page(owner.client)).toContain(client.email);
    const ownData = await (await owner.client.get("/my-leads.data")).text();
    expect(ownData).toContain(client.email);
    const cursor = Buffer.from(JSON.stringify(["2999-01-01T00:00:00Z", "ffffffff-ffff-ffff-ffff-ffffffffffff"])).toString("base64url");
    for (const path of ["/my-leads", "/my-leads.data", `/my-leads?cursor=${cursor}`, `/my-leads.data?cursor=${cursor}`]) {
      const body = await (await other.client.get(path)).text();
      for (const secret of [client.email, "Private-Client", gig.title, gig.contactPreferences!]) expect(body, path).not.toContain(secret);
    }
  });

  it("gives a digger who has not bought a lead none of the client's contact details anywhere", async () => {
    const client = await signUpAs(app, "consumer", "Robin Hidden-Surname");
    const buyer = await diggerWithProfile(app);
    const outsider = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id);
    await insertPurchase(app, gig, buyer.diggerId);
    const q = encodeURIComponent(gig.title);
    for (const path of [
      `/gig/${gig.id}`,
      `/gig/${gig.id}.data`,
      `/browse-gigs?q=${q}`,
      `/browse-gigs.data?q=${q}`,
      "/my-leads",
      "/my-leads.data",
      `/my-gigs/${gig.id}/issues`,
      `/my-gigs/${gig.id}/issues.data`,
    ]) {
      const body = await (await outsider.client.get(path)).text();
      for (const secret of [client.email, "Hidden-Surname", gig.contactPreferences!, gig.contactPhone!]) expect(body, path).not.toContain(secret);
    }
  });

  it("pages by purchased_at, newest first, without repeating or skipping (the id breaks ties)", async () => {
    const client = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    const base = Date.UTC(2026, 0, 1);
    const bought: string[] = [];
    for (let i = 0; i < 25; i++) {
      const gig = await insertGig(app, client.id);
      // Pairs share a timestamp down to the microsecond.
      const purchase = await insertPurchase(app, gig, digger.diggerId, { purchasedAt: new Date(base + Math.floor(i / 2) * 60_000) });
      bought.push(purchase.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const result = await listMyLeads(app.database.db, digger.diggerId, cursor, 10);
      seen.push(...result.items.map((lead) => lead.id));
      cursor = result.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(25);
    expect(seen.sort()).toEqual(bought.sort());

    const first = await page(digger.client);
    expect(first).toContain("Load more");
    expect(first.match(/>Send Email</g)).toHaveLength(20);
  });

  it("says 'Failed to load leads' when the leads cannot be read", async () => {
    const digger = await diggerWithProfile(app);
    await queryRows(app.database.db, sql`alter table lead_issues rename to lead_issues_away`);
    try {
      const response = await digger.client.get("/my-leads");
      expect(response.status).toBe(500);
      const html = decodeHtml(await response.text());
      expect(html).toContain("Failed to load leads");
      expect(html).not.toContain("Browse Available Gigs");
    } finally {
      await queryRows(app.database.db, sql`alter table lead_issues_away rename to lead_issues`);
    }
  });
});

describe("the client's phone and the refund's state", () => {
  it("gives the buyer the client's phone with a tel: link, on My Leads and on the gig page itself", async () => {
    const client = await signUpAs(app, "consumer", "Pat Phone-Owner");
    const buyer = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id, { contactPhone: "+1 (303) 555-0142" });
    await insertPurchase(app, gig, buyer.diggerId);
    const leads = await page(buyer.client);
    expect(leads).toContain("+1 (303) 555-0142");
    expect(leads).toContain('href="tel:+13035550142"');
    const gigPage = await page(buyer.client, `/gig/${gig.id}`);
    for (const text of ["You bought this lead: contact the client", "Pat Phone-Owner", client.email, "+1 (303) 555-0142", ">Call<", ">Send Email<"]) {
      expect(gigPage).toContain(text);
    }
    // Before buying, the same page has none of it (the other checks of this file and the crawl cover the rest).
    const outsider = await diggerWithProfile(app);
    const unbought = await page(outsider.client, `/gig/${gig.id}`);
    for (const secret of ["Phone-Owner", client.email, "555-0142"]) expect(unbought).not.toContain(secret);
  });

  it("refuses a phone that is not one, with the message beside the field, and saves a good one", async () => {
    const client = await signUpAs(app, "consumer");
    const form = {
      title: "Paint the garden fence posts",
      description: "Twenty fence posts need sanding and two coats of exterior paint before winter.",
      location: "Denver, CO",
      timeline: "This month",
      categoryId: await topLevelCategoryId(app),
      acceptTerms: "on",
    };
    for (const phone of ["call me", "123", "+1 303 555 0142 0000000", "(((-)))"]) {
      const response = await client.client.post("/post-gig", { ...form, contactPhone: phone });
      expect(response.status, phone).toBe(400);
      expect(decodeHtml(await response.text()), phone).toContain(PHONE_TEXTS.invalidNumber);
    }
    const saved = await client.client.post("/post-gig", { ...form, contactPhone: " 303-555-0199 " });
    expect(saved.status).toBe(302);
    const [row] = await queryRows<{ phone: string }>(app.database.db, sql`select contact_phone as phone from gigs where consumer_id = ${client.id}`);
    expect(row?.phone).toBe("+13035550199");
  });

  it("tells the refund's state in words: declined, on its way, refunded", async () => {
    const client = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    const lead = async (status: "approved" | "rejected", refund: "pending" | "succeeded" | null) => {
      const gig = await insertGig(app, client.id);
      const purchase = await insertPurchase(app, gig, digger.diggerId, { amountPaidCents: 5_000 });
      const [issue] = await app.database.db
        .insert(leadIssues)
        .values({ leadPurchaseId: purchase.id, diggerId: digger.diggerId, issueType: "already_filled", description: "Hired already.", refundPercentage: 50, status, decidedBy: "client", resolvedAt: new Date() })
        .returning();
      if (refund) {
        await app.database.db.insert(refunds).values({
          leadPurchaseId: purchase.id,
          leadIssueId: issue!.id,
          reason: "issue_approved",
          amountCents: 2_500,
          status: refund,
          completedAt: refund === "succeeded" ? new Date() : null,
        });
      }
      return gig;
    };
    const declined = await lead("rejected", null);
    const waiting = await lead("approved", "pending");
    const refunded = await lead("approved", "succeeded");
    const html = await page(digger.client);
    const cardOf = (title: string) => html.slice(html.indexOf(title), html.indexOf("</li>", html.indexOf(title)));
    expect(cardOf(declined.title)).toContain("Refund declined");
    expect(cardOf(waiting.title)).toContain("Refund of $25.00 on its way");
    expect(cardOf(refunded.title)).toContain("Refunded $25.00");
    expect(cardOf(refunded.title)).not.toContain("on its way");
  });
});

describe("the ledger at the top of /my-leads", () => {
  const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

  it("sums completed purchases and succeeded refunds for the last 30 days and all time, to the cent", async () => {
    const clientUser = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    const someoneElse = await diggerWithProfile(app);
    const gig = () => insertGig(app, clientUser.id);
    const recent = await insertPurchase(app, await gig(), digger.diggerId, { amountPaidCents: 1_525 });
    const old = await insertPurchase(app, await gig(), digger.diggerId, { amountPaidCents: 2_510, purchasedAt: daysAgo(40) });
    const cancelled = await insertPurchase(app, await gig(), digger.diggerId, { amountPaidCents: 999, status: "cancelled" });
    await insertPurchase(app, await gig(), digger.diggerId, { amountPaidCents: 777, status: "pending" });
    const others = await insertPurchase(app, await gig(), someoneElse.diggerId, { amountPaidCents: 5_000 });
    const refund = (purchaseId: string, amountCents: number, completedAt: Date | null) => ({
      leadPurchaseId: purchaseId,
      reason: "lead_unavailable" as const,
      amountCents,
      status: completedAt ? ("succeeded" as const) : ("pending" as const),
      completedAt,
    });
    await app.database.db.insert(refunds).values([
      refund(recent.id, 762, new Date()), // in the last 30 days
      refund(old.id, 1_004, daysAgo(35)), // all time only
      refund(old.id, 300, null), // pending: not yet refunded
      refund(cancelled.id, 999, new Date()), // a payment that never became a lead
      refund(others.id, 5_000, new Date()), // another digger's
    ]);

    expect(await leadLedger(app.database.db, digger.diggerId)).toEqual({
      last30Days: { leadsBought: 1, spentCents: 1_525, refundedCents: 762, ...noGuarantee, netCents: 763, quotesSent: 0, quotesAccepted: 0, hires: 0, netPerHireCents: null },
      allTime: { leadsBought: 2, spentCents: 4_035, refundedCents: 1_766, ...noGuarantee, netCents: 2_269, quotesSent: 0, quotesAccepted: 0, hires: 0, netPerHireCents: null },
    });
    const html = await page(digger.client);
    for (const text of ["Last 30 days", "All time", "Leads bought", "Total spent", "Total refunded", "Net spent"]) {
      expect(html).toContain(text);
    }
    for (const money of ["$15.25", "$7.62", "$7.63", "$40.35", "$17.66", "$22.69"]) expect(html).toContain(money);
  });

  it("shows zeros to a digger who has bought nothing", async () => {
    const digger = await diggerWithProfile(app);
    expect(await leadLedger(app.database.db, digger.diggerId)).toEqual({
      last30Days: { leadsBought: 0, spentCents: 0, refundedCents: 0, ...noGuarantee, netCents: 0, quotesSent: 0, quotesAccepted: 0, hires: 0, netPerHireCents: null },
      allTime: { leadsBought: 0, spentCents: 0, refundedCents: 0, ...noGuarantee, netCents: 0, quotesSent: 0, quotesAccepted: 0, hires: 0, netPerHireCents: null },
    });
    const html = await page(digger.client);
    expect(html).toContain("Net spent");
    expect(html).toContain("$0.00");
  });
});

describe("where each lead stands (issue 47)", () => {
  it("says 'Hired', 'Not chosen', 'Gig filled', 'Refund pending', 'Refunded' or 'Active', computed by the database, and filters by it", async () => {
    const db = app.database.db;
    const digger = await diggerWithProfile(app);
    const client = await signUpAs(app, "consumer", "Stan States");
    /** A gig of the client's with a completed purchase of this digger's. */
    const bought = async (title: string) => {
      const gig = await insertGig(app, client.id, { title });
      const purchase = await insertPurchase(app, gig, digger.diggerId);
      await db.update(gigs).set({ purchaseCount: 1 }).where(eq(gigs.id, gig.id));
      return { gig, purchase };
    };
    const refundedLead = async (title: string, refund: "pending" | "succeeded") => {
      const { gig, purchase } = await bought(title);
      const [issue] = await db
        .insert(leadIssues)
        .values({ leadPurchaseId: purchase.id, diggerId: digger.diggerId, issueType: "mistake", description: "Posted by mistake.", refundPercentage: 100, status: "approved", decidedBy: "client", resolvedAt: new Date() })
        .returning();
      await db.insert(refunds).values({ leadPurchaseId: purchase.id, leadIssueId: issue!.id, reason: "issue_approved", amountCents: purchase.amountPaidCents, status: refund, completedAt: refund === "succeeded" ? new Date() : null });
      return gig;
    };

    const active = await bought("State: still in play here");
    const hired = await bought("State: this digger hired");
    await db.insert(hires).values({ gigId: hired.gig.id, diggerId: digger.diggerId });
    // Another digger's quote accepted (through the thread's own flow): this digger was not chosen.
    const rival = await boughtLead(app, { client, gig: await insertGig(app, client.id, { title: "State: another digger chosen" }) });
    await insertPurchase(app, rival.gig, digger.diggerId);
    const quote = await sendQuoteForm(app, rival.digger.id, rival.threadId, { type: "fixed", amount: "800", included: "Labour" });
    await acceptQuote(app.services, client.id, rival.threadId, quote.quoteId);
    const filled = await bought("State: the client filled it");
    await db.update(gigs).set({ status: "closed", filledAt: new Date() }).where(eq(gigs.id, filled.gig.id));
    const pending = await refundedLead("State: refund on its way", "pending");
    const refunded = await refundedLead("State: money came back", "succeeded");

    const { items } = await listMyLeads(db, digger.diggerId, null);
    const stateOf = (gigId: string) => items.find((lead) => lead.gig.id === gigId)?.state;
    expect(items).toHaveLength(6);
    expect(stateOf(active.gig.id)).toBe("active");
    expect(stateOf(hired.gig.id)).toBe("hired");
    expect(stateOf(rival.gig.id)).toBe("not_chosen");
    expect(stateOf(filled.gig.id)).toBe("filled");
    expect(stateOf(pending.id)).toBe("refund_pending");
    expect(stateOf(refunded.id)).toBe("refunded");
    // The rival, hired through the accepted quote, reads 'Hired'.
    expect((await listMyLeads(db, rival.digger.diggerId, null)).items[0]!.state).toBe("hired");

    // The page: each badge, live leads apart from the rest, and the filter's links ('All' first).
    const html = await page(digger.client);
    for (const label of ["Active", "Hired", "Not chosen", "Gig filled", "Refund pending", "Refunded"]) expect(html).toContain(`>${label}</span>`);
    expect(html.match(/data-lead-state="(active|hired)"/g)).toHaveLength(2);
    expect(html.match(/border-dashed/g)).toHaveLength(4);
    const filter = html.slice(html.indexOf('aria-label="Filter leads by state"'), html.indexOf("</nav>", html.indexOf('aria-label="Filter leads by state"')));
    const links = [...filter.matchAll(/<a[^>]*href="(\/my-leads[^"]*)"[^>]*>([^<]+)<\/a>/g)].map(([, href, label]) => `${label} ${href}`);
    expect(links).toEqual([
      "All /my-leads",
      "Active /my-leads?state=active",
      "Hired /my-leads?state=hired",
      "Not chosen /my-leads?state=not_chosen",
      "Gig filled /my-leads?state=filled",
      "Refund pending /my-leads?state=refund_pending",
      "Refunded /my-leads?state=refunded",
    ]);
    expect(filter).toMatch(/<a[^>]*aria-current="page"[^>]*href="\/my-leads"|<a[^>]*href="\/my-leads"[^>]*aria-current="page"/);

    // Each filter lists its leads only; an unknown state lists all.
    for (const [state, gig] of [["active", active.gig], ["hired", hired.gig], ["not_chosen", rival.gig], ["filled", filled.gig], ["refund_pending", pending], ["refunded", refunded]] as const) {
      const filtered = await page(digger.client, `/my-leads?state=${state}`);
      expect(filtered.match(/data-lead-state="/g), state).toHaveLength(1);
      expect(filtered, state).toContain(`>${gig.title}</h2>`);
    }
    expect((await page(digger.client, "/my-leads?state=bogus")).match(/data-lead-state="/g)).toHaveLength(6);
    // A filter with nothing in it says so.
    const none = await diggerWithProfile(app);
    await insertPurchase(app, active.gig, none.diggerId);
    expect(await page(none.client, "/my-leads?state=refunded")).toContain("No leads in 'Refunded'.");
  });
});

describe("the gig's page after paying (issue 47)", () => {
  it("makes 'Message {first name}' the main action, with Send a Quote while the digger may quote, Send Email, Call and Text", async () => {
    const lead = await boughtLead(app, { clientName: "Clara Q. Client" });
    const rival = await boughtLead(app, { client: lead.client, gig: lead.gig });
    const gigPage = async () => page(lead.digger.client, `/gig/${lead.gig.id}`);
    const digits = lead.gig.contactPhone!.replace(/[^0-9+]/g, "");

    const html = await gigPage();
    expect(html).toMatch(new RegExp(`<a[^>]*href="/messages/${lead.threadId}"[^>]*>.*?Message Clara</a>`));
    expect(html).toMatch(new RegExp(`<a[^>]*href="/messages/${lead.threadId}\\?compose=quote"[^>]*>.*?Send a Quote</a>`));
    expect(html).toMatch(/<a[^>]*href="mailto:[^"]*"[^>]*>.*?Send Email<\/a>/);
    expect(html).toMatch(new RegExp(`<a[^>]*href="tel:${digits.replace("+", "\\+")}"[^>]*>.*?Call</a>`));
    expect(html).toMatch(new RegExp(`<a[^>]*href="sms:${digits.replace("+", "\\+")}"[^>]*>.*?Text</a>`));
    // Message is the primary button; Send Email no longer is.
    expect(html.indexOf("Message Clara")).toBeLessThan(html.indexOf("Send Email"));

    // The client accepts the other digger's quote: this one was not chosen and may not quote here.
    const quote = await sendQuoteForm(app, rival.digger.id, rival.threadId, { type: "fixed", amount: "800", included: "Labour" });
    await acceptQuote(app.services, lead.client.id, rival.threadId, quote.quoteId);
    const after = await gigPage();
    expect(after).toContain("Message Clara");
    expect(after).not.toContain("Send a Quote");
    expect(after).toContain(`sms:${digits}`);
    // A visitor sees none of it.
    const visitor = decodeHtml(await (await new SessionClient(app).get(`/gig/${lead.gig.id}`)).text());
    for (const secret of ["Message Clara", `sms:${digits}`, `/messages/${lead.threadId}`]) expect(visitor).not.toContain(secret);
  });
});

describe("the reply guarantee on the lead card (issue 48)", () => {
  /** A lead of a new gig bought by `digger` through the checkout's completion (its thread with it). */
  async function leadOf(digger: TestDigger, title: string) {
    const client = await signUpAs(app, "consumer", "Gwen Guarantee");
    const gig = await insertGig(app, client.id, { title });
    const pending = await insertPurchase(app, gig, digger.diggerId, { status: "pending", purchasedAt: null });
    expect(await completeCheckout(app.services, pending.providerSessionId!, "pi_test")).toBe("completed");
    const [row] = await app.database.db.select().from(threads).where(eq(threads.purchaseId, pending.id));
    return { client, gig, purchaseId: pending.id, threadId: row!.id };
  }
  const purchaseOf = async (id: string) => (await app.database.db.select().from(leadPurchases).where(eq(leadPurchases.id, id)))[0]!;
  const threadOf = async (id: string) => (await app.database.db.select().from(threads).where(eq(threads.id, id)))[0]!;
  /** A refund by the guarantee, as its check records it: the refund row and the purchase's outcome. */
  async function refundedByGuarantee(purchaseId: string, status: "pending" | "succeeded", completedAt: Date | null = status === "succeeded" ? new Date() : null) {
    const purchase = await purchaseOf(purchaseId);
    await app.database.db.insert(refunds).values({ leadPurchaseId: purchaseId, reason: "reply_guarantee", amountCents: purchase.amountPaidCents, status, completedAt });
    await app.database.db.update(leadPurchases).set({ guaranteeOutcome: "refunded", guaranteeSettledAt: new Date() }).where(eq(leadPurchases.id, purchaseId));
    return purchase.amountPaidCents;
  }

  it("says covered, still time to write, not covered, refunded, reviewed or declined, with what the thread shows", async () => {
    const db = app.database.db;
    const digger = await diggerWithProfile(app);
    const time = readerTime(null, app.config);
    const fresh = await leadOf(digger, "Guarantee: nothing written yet");
    const covered = await leadOf(digger, "Guarantee: covered and waiting");
    await say(digger, covered.threadId);
    const opened = await leadOf(digger, "Guarantee: the client opened it");
    await say(digger, opened.threadId);
    expect((await opened.client.client.get(`/messages/${opened.threadId}`)).status).toBe(200);
    const late = await leadOf(digger, "Guarantee: written too late");
    await moveGuaranteeBack(app, late.purchaseId, 30);
    await say(digger, late.threadId);
    const silent = await leadOf(digger, "Guarantee: never written");
    await moveGuaranteeBack(app, silent.purchaseId, 30);
    const refunded = await leadOf(digger, "Guarantee: refunded");
    await say(digger, refunded.threadId);
    await moveGuaranteeBack(app, refunded.purchaseId);
    const refundCents = await refundedByGuarantee(refunded.purchaseId, "succeeded");
    const onItsWay = await leadOf(digger, "Guarantee: refund on its way");
    await say(digger, onItsWay.threadId);
    await moveGuaranteeBack(app, onItsWay.purchaseId);
    await refundedByGuarantee(onItsWay.purchaseId, "pending");
    const escalated = await leadOf(digger, "Guarantee: past the bound");
    await say(digger, escalated.threadId);
    await db.update(leadPurchases).set({ guaranteeOutcome: "escalated" }).where(eq(leadPurchases.id, escalated.purchaseId));
    const declined = await leadOf(digger, "Guarantee: declined");
    await say(digger, declined.threadId);
    await db.update(leadPurchases).set({ guaranteeOutcome: "declined", guaranteeSettledAt: new Date() }).where(eq(leadPurchases.id, declined.purchaseId));

    const html = await page(digger.client);
    /** The guarantee's box of the card of `title`. */
    const box = (title: string) => {
      const card = html.slice(html.indexOf(`>${title}</h2>`));
      const start = card.indexOf("data-reply-guarantee");
      return start === -1 || start > card.indexOf("</li>") ? "" : card.slice(start, card.indexOf("</div>", start));
    };
    const due = (await purchaseOf(covered.purchaseId)).guaranteeDueAt!;
    const boughtAt = (await purchaseOf(fresh.purchaseId)).purchasedAt!;
    expect(box(fresh.gig.title)).toContain(writeToBeCoveredText(time.deadline(new Date(boughtAt.getTime() + GUARANTEE_WRITE_HOURS * HOUR))));
    expect(box(fresh.gig.title)).toContain("Client has not opened your thread · Messages: 0 from the digger, 0 from the client · No message from the digger yet");
    expect(box(covered.gig.title)).toContain(coveredText(time.deadline(due)));
    expect(box(covered.gig.title)).toContain("Client has not opened your thread · Messages: 1 from the digger, 0 from the client · First message 0 minutes after buying");
    // Opened: nothing more to promise; the evidence says when.
    expect(box(opened.gig.title)).not.toContain("Reply guarantee:");
    expect(box(opened.gig.title)).toContain(`Client opened your thread ${time.dateTime((await threadOf(opened.threadId)).clientOpenedAt!)}`);
    expect(box(late.gig.title)).toContain(GUARANTEE_TEXTS.notCovered);
    expect(box(late.gig.title)).toContain("First message 30 hours after buying");
    expect(box(silent.gig.title)).toContain(GUARANTEE_TEXTS.notCovered);
    expect(box(refunded.gig.title)).toContain(GUARANTEE_TEXTS.refunded);
    expect(box(onItsWay.gig.title)).toContain(GUARANTEE_TEXTS.refunded);
    expect(box(escalated.gig.title)).toContain(GUARANTEE_TEXTS.escalated);
    expect(box(declined.gig.title)).toContain(GUARANTEE_TEXTS.declined);
    // A refund by the guarantee reads like any refund: its state, its amount, the filters.
    expect(html).toContain(`Refunded ${formatPrice(refundCents)}`);
    const { items } = await listMyLeads(db, digger.diggerId, null);
    const stateOf = (purchaseId: string) => items.find((lead) => lead.id === purchaseId)?.state;
    expect(stateOf(refunded.purchaseId)).toBe("refunded");
    expect(stateOf(onItsWay.purchaseId)).toBe("refund_pending");
    expect(stateOf(covered.purchaseId)).toBe("active");
    expect(await page(digger.client, "/my-leads?state=refunded")).toContain(`>${refunded.gig.title}</h2>`);
    expect(await page(digger.client, "/my-leads?state=refund_pending")).toContain(`>${onItsWay.gig.title}</h2>`);

  });

  it("counts the guarantee's refunds in 'Your spending': how many and how much, 30 days and all time", async () => {
    const digger = await diggerWithProfile(app);
    const recent = await leadOf(digger, "Spending: refunded this month");
    const recentCents = await refundedByGuarantee(recent.purchaseId, "succeeded");
    const old = await leadOf(digger, "Spending: refunded long ago");
    const oldCents = await refundedByGuarantee(old.purchaseId, "succeeded", new Date(Date.now() - 40 * 24 * HOUR));
    const waiting = await leadOf(digger, "Spending: refund not back yet");
    await refundedByGuarantee(waiting.purchaseId, "pending");

    const ledger = await leadLedger(app.database.db, digger.diggerId);
    expect(ledger.last30Days).toMatchObject({ guaranteeRefunds: 1, guaranteeRefundedCents: recentCents, refundedCents: recentCents });
    expect(ledger.allTime).toMatchObject({ guaranteeRefunds: 2, guaranteeRefundedCents: recentCents + oldCents, refundedCents: recentCents + oldCents });
    const html = await page(digger.client);
    const row = html.slice(html.indexOf(GUARANTEE_TEXTS.spendingLabel));
    expect(row.indexOf(`1 · ${formatPrice(recentCents)}`)).toBeGreaterThan(-1);
    expect(row.indexOf(`2 · ${formatPrice(recentCents + oldCents)}`)).toBeGreaterThan(row.indexOf(`1 · ${formatPrice(recentCents)}`));
    // Nothing refunded by it: '0'.
    expect(await page((await diggerWithProfile(app)).client)).toMatch(new RegExp(`${GUARANTEE_TEXTS.spendingLabel}</th><td[^>]*>0</td>`));
  });
});
