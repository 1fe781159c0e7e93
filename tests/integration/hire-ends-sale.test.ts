/**
 * A hire ends the sale (issue 47): accepting a quote takes the gig's lead off sale at once (no
 * new purchase, and a checkout held before completes as a refund); removing the last hire puts
 * it back on sale and starts its lead alerts; 'Keep it open for more diggers' (intent
 * "keep-open" on /my-gigs) puts a hired gig back on sale, for its owner only.
 */
import { and, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GIG_HIRED_TEXTS } from "../../core/gig-texts.ts";
import { GIG_HIRED } from "../../core/lead-spots.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { diggerProfiles, gigs, hires, leadPurchases, notifications, refunds } from "../../server/db/schema.ts";
import { whyNotForSale } from "../../server/leads/for-sale.ts";
import { completeCheckout } from "../../server/leads/fulfilment.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobOf } from "../support/jobs.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertPurchase, type BoughtLead } from "../support/leads.ts";
import { sendQuoteForm } from "../support/quotes.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 60_000);
afterAll(() => app.close());

const db = () => app.database.db;
const FIXED = { type: "fixed", amount: "800", included: "Labour and materials" };

/** A bought lead whose digger's quote the client accepted (the gig's only hire). */
async function acceptedLead(): Promise<BoughtLead> {
  const lead = await boughtLead(app);
  const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
  await acceptQuote(app.services, lead.client.id, lead.threadId, sent.quoteId);
  return lead;
}

const alertsJob = (gigId: string) => jobOf(db(), "alerts.gig", "gigId", gigId);
const handleOf = async (diggerId: string) => (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)))[0]!.handle;
const gigRow = async (gigId: string) => (await db().select().from(gigs).where(eq(gigs.id, gigId)))[0]!;

describe("a hire ends the sale", () => {
  it("accepting a quote takes the lead off sale at once: a third digger's purchase is refused with the reason, and the gig leaves Browse Gigs", async () => {
    const lead = await boughtLead(app);
    expect(await whyNotForSale(db(), lead.gig.id)).toBeNull();
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await acceptQuote(app.services, lead.client.id, lead.threadId, sent.quoteId);
    expect(await whyNotForSale(db(), lead.gig.id)).toBe("hired");
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: true, openForMore: false });

    const third = await diggerWithProfile(app);
    const refused = await third.client.post(`/gig/${lead.gig.id}`, { intent: "purchase" });
    expect(refused.status).toBe(409);
    expect(decodeHtml(await refused.text())).toContain(GIG_HIRED);
    expect(await db().select().from(leadPurchases).where(and(eq(leadPurchases.gigId, lead.gig.id), eq(leadPurchases.diggerId, third.diggerId)))).toEqual([]);
    const browse = await (await new SessionClient(app).get(`/browse-gigs?q=${encodeURIComponent(lead.gig.title)}`)).text();
    expect(browse).not.toContain(`/gig/${lead.gig.id}`);
  });

  it("a checkout held before the accept completes as a refund in full, and its digger is told the lead is no longer available", async () => {
    const lead = await boughtLead(app);
    const late = await diggerWithProfile(app);
    const held = await insertPurchase(app, lead.gig, late.diggerId, { status: "pending", purchasedAt: null });
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await acceptQuote(app.services, lead.client.id, lead.threadId, sent.quoteId);

    expect(await completeCheckout(app.services, held.providerSessionId!, "pi_hired")).toBe("unavailable_refunded");
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, held.id));
    expect(purchase!.status).toBe("cancelled");
    const back = await db().select().from(refunds).where(eq(refunds.leadPurchaseId, held.id));
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ reason: "lead_unavailable", amountCents: held.amountPaidCents });
    const bell = await db().select().from(notifications).where(eq(notifications.userId, late.id));
    expect(bell.map((n) => n.text)).toEqual([expect.stringContaining(`The lead for "${lead.gig.title}" is no longer available`)]);
    expect((await gigRow(lead.gig.id)).purchaseCount).toBe(1);
  });

  it("removing the last hire puts the gig back on sale and starts its lead alerts; removing one of two does not", async () => {
    const lead = await boughtLead(app);
    const other = await boughtLead(app, { client: lead.client, gig: lead.gig });
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await acceptQuote(app.services, lead.client.id, lead.threadId, sent.quoteId);
    const diggers = lead.client.client;
    expect((await diggers.post(`/my-gigs/${lead.gig.id}/diggers`, { intent: "hire", diggerId: other.digger.diggerId })).status).toBeLessThan(400);
    await db().update(gigs).set({ openForMore: true }).where(eq(gigs.id, lead.gig.id));

    expect((await diggers.post(`/my-gigs/${lead.gig.id}/diggers`, { intent: "unhire", diggerId: other.digger.diggerId })).status).toBeLessThan(400);
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: true, openForMore: true });
    expect(await alertsJob(lead.gig.id)).toBeUndefined();

    // The last one: off the hires, and 'kept open' goes with it (a new hire takes the gig off sale again).
    await db().update(gigs).set({ openForMore: false }).where(eq(gigs.id, lead.gig.id));
    expect(await whyNotForSale(db(), lead.gig.id)).toBe("hired");
    expect((await diggers.post(`/my-gigs/${lead.gig.id}/diggers`, { intent: "unhire", diggerId: lead.digger.diggerId })).status).toBeLessThan(400);
    expect(await db().select().from(hires).where(eq(hires.gigId, lead.gig.id))).toEqual([]);
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: false, openForMore: false });
    expect(await whyNotForSale(db(), lead.gig.id)).toBeNull();
    expect(await alertsJob(lead.gig.id)).toBeDefined();
  });

  it("'Keep it open for more diggers' puts a hired gig back on sale and starts its alerts; a second time changes nothing", async () => {
    const lead = await acceptedLead();
    expect(await alertsJob(lead.gig.id)).toBeUndefined();
    // Before: the accepted quote's notice offers it, in the thread and on Compare Quotes.
    const thread = () => lead.client.client.get(`/messages/${lead.threadId}`).then(async (r) => decodeHtml(await r.text()));
    const compare = () => lead.client.client.get(`/my-gigs/${lead.gig.id}/quotes`).then(async (r) => decodeHtml(await r.text()));
    expect(await thread()).toContain(GIG_HIRED_TEXTS.keepOpen);
    expect(await compare()).toContain(GIG_HIRED_TEXTS.keepOpen);
    const kept = await lead.client.client.post("/my-gigs", { intent: "keep-open", gigId: lead.gig.id });
    expect(kept.status).toBeLessThan(400);
    // After: the notice says it is done instead of asking again, on a later visit too.
    for (const page of [await thread(), await compare()]) {
      expect(page).toContain(GIG_HIRED_TEXTS.keptOpen);
      expect(page).not.toContain(GIG_HIRED_TEXTS.keepOpen);
    }
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: true, openForMore: true });
    expect(await whyNotForSale(db(), lead.gig.id)).toBeNull();
    expect(await alertsJob(lead.gig.id)).toBeDefined();
    const html = decodeHtml(await (await lead.client.client.get("/my-gigs")).text());
    expect(html).toContain(GIG_HIRED_TEXTS.hiredLine(await handleOf(lead.digger.diggerId)));
    expect(html).not.toContain(GIG_HIRED_TEXTS.keepOpen);

    const again = await lead.client.client.post("/my-gigs", { intent: "keep-open", gigId: lead.gig.id });
    expect(again.status).toBeLessThan(400);
    const third = await diggerWithProfile(app);
    expect(location(await third.client.post(`/gig/${lead.gig.id}`, { intent: "purchase" }))).toMatch(/^\/checkout\/test_cs_/);
  });

  it("only the gig's owner may keep it open, only while it is hired", async () => {
    const lead = await acceptedLead();
    const form = { intent: "keep-open", gigId: lead.gig.id };
    const stranger = await signUpAs(app, "consumer", "Other Client");
    expect((await stranger.client.post("/my-gigs", form)).status).toBe(404);
    expect((await lead.digger.client.post("/my-gigs", form)).status).toBe(404);
    expect(location(await new SessionClient(app).post("/my-gigs", form))).toBe("/auth?redirect=/my-gigs");
    expect((await lead.client.client.post("/my-gigs", { intent: "keep-open", gigId: "not-a-gig" })).status).toBe(404);
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: true, openForMore: false });

    const unhired = await boughtLead(app);
    const refused = await unhired.client.client.post("/my-gigs", { intent: "keep-open", gigId: unhired.gig.id });
    expect(refused.status).toBe(409);
    expect(decodeHtml(await refused.text())).toContain(GIG_HIRED_TEXTS.notHired);
    expect(await gigRow(unhired.gig.id)).toMatchObject({ hired: false, openForMore: false });
  });
});

describe("My Gigs while hired", () => {
  it("says 'Hired' rather than open and Active, names the hired digger with Message to the thread, and offers to keep it open", async () => {
    const lead = await acceptedLead();
    const html = decodeHtml(await (await lead.client.client.get("/my-gigs")).text());
    expect(html).toContain(GIG_HIRED_TEXTS.hiredLine(await handleOf(lead.digger.diggerId)));
    expect(html).toContain(`href="/messages/${lead.threadId}"`);
    expect(html).toContain(GIG_HIRED_TEXTS.keepOpen);
    expect(html).toMatch(/>Hired<\/span>/);
    expect(html).not.toMatch(/>open<\/span>/);
    expect(html).not.toContain(">Active<");
  });
});

// Two transactions at once need two connections: PostgreSQL only (PGlite has one).
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("the hires trigger under concurrent writes (PostgreSQL)", () => {
  it("two hires removed at once leave the gig not hired: the second removal waits for the first on the gig's row", async () => {
    const lead = await boughtLead(app);
    const other = await diggerWithProfile(app);
    await insertPurchase(app, lead.gig, other.diggerId);
    await db().insert(hires).values([
      { gigId: lead.gig.id, diggerId: lead.digger.diggerId },
      { gigId: lead.gig.id, diggerId: other.diggerId },
    ]);
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: true });
    const [first, second] = [new pg.Client({ connectionString: app.database.url! }), new pg.Client({ connectionString: app.database.url! })];
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query("BEGIN");
      await second.query("BEGIN");
      await first.query("DELETE FROM hires WHERE gig_id = $1 AND digger_id = $2", [lead.gig.id, lead.digger.diggerId]);
      // Blocks on the gig's row, which the first removal's trigger locked.
      const removing = second.query("DELETE FROM hires WHERE gig_id = $1 AND digger_id = $2", [lead.gig.id, other.diggerId]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query("COMMIT");
      await removing;
      await second.query("COMMIT");
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    expect(await db().select().from(hires).where(eq(hires.gigId, lead.gig.id))).toEqual([]);
    expect(await gigRow(lead.gig.id)).toMatchObject({ hired: false, openForMore: false });
  });
});
