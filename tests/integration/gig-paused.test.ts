/**
 * A lead nobody can reach stops being sold (issue 48): the client's opening of a thread
 * (threads.client_opened_at, set by the client's own page only, once something of the digger's is
 * in it; an operator's look never sets it), the pause of a gig whose client opened none of its
 * threads 48 hours after a covered first message (server/leads/pause-gig.ts: its notice once per
 * pause, off every list, Buy refused), the return to sale when the client opens any of its
 * threads, and a checkout that was open when the gig paused.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { awaitingReplyNotice, GUARANTEE_TEXTS } from "../../core/reply-guarantee.ts";
import { alertGig } from "../../server/alerts/fan-out.ts";
import { gigs, leadPurchases, messageReports, messages, notifications, threads } from "../../server/db/schema.ts";
import { completeCheckout } from "../../server/leads/fulfilment.ts";
import { whyNotForSale } from "../../server/leads/for-sale.ts";
import { getLandingShowcase } from "../../server/marketing/landing.ts";
import { signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, PRODUCTION_ENV, type TestApp } from "../support/app.ts";
import { moveGuaranteeBack, pauseGig, say } from "../support/guarantee.ts";
import { jobOf } from "../support/jobs.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type BoughtLead } from "../support/leads.ts";
import { sendQuoteForm } from "../support/quotes.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 60_000);
afterAll(() => app.close());

const db = () => app.database.db;

async function threadRow(threadId: string) {
  const [row] = await db().select().from(threads).where(eq(threads.id, threadId));
  return row!;
}

const view = async (user: TestUser, threadId: string) => expect((await user.client.get(`/messages/${threadId}`)).status).toBe(200);

async function paused(gigId: string): Promise<boolean> {
  const [row] = await db().select({ paused: gigs.awaitingReply }).from(gigs).where(eq(gigs.id, gigId));
  return row!.paused;
}

/** A lead whose digger wrote at once, 48 hours ago: covered, due, and nobody opened its thread. */
async function dueLead(on: Parameters<typeof boughtLead>[1] = {}): Promise<BoughtLead> {
  const lead = await boughtLead(app, on);
  await say(lead.digger, lead.threadId);
  await moveGuaranteeBack(app, lead.purchaseId);
  return lead;
}

/** Whether gig `gigId` is on Browse Gigs (searched by its title), the landing, the sitemap and the alerts. */
async function listedEverywhere(gig: { id: string; title: string }) {
  const browse = await (await new SessionClient(app).get(`/browse-gigs?q=${encodeURIComponent(gig.title)}`)).text();
  const sitemap = await (await app.request("/sitemap.xml")).text();
  const landing = await getLandingShowcase(db());
  return {
    browse: browse.includes(`/gig/${gig.id}`),
    sitemap: sitemap.includes(`/gig/${gig.id}`),
    landing: landing.gigs.some((g) => g.id === gig.id),
    alerts: (await alertGig(db(), gig.id)) !== null,
  };
}

const everywhere = (listed: boolean) => ({ browse: listed, sitemap: listed, landing: listed, alerts: listed });

describe("the client opening a thread", () => {
  it("is recorded for the client only, once something of the digger's is there, and only the first time", async () => {
    const lead = await boughtLead(app);
    // Nothing of the digger's yet: the client's look is not an opening.
    await view(lead.client, lead.threadId);
    expect((await threadRow(lead.threadId)).clientOpenedAt).toBeNull();

    await say(lead.digger, lead.threadId);
    // The digger's own look never is.
    await view(lead.digger, lead.threadId);
    expect((await threadRow(lead.threadId)).clientOpenedAt).toBeNull();

    await view(lead.client, lead.threadId);
    const opened = (await threadRow(lead.threadId)).clientOpenedAt;
    expect(opened).toBeInstanceOf(Date);
    // Read with it: the same transaction marked the thread read.
    expect((await threadRow(lead.threadId)).clientReadSeq).toBeGreaterThan(0);

    await say(lead.digger, lead.threadId, "Any news?");
    await view(lead.client, lead.threadId);
    expect((await threadRow(lead.threadId)).clientOpenedAt).toEqual(opened);
  });

  it("counts a quote as something of the digger's", async () => {
    const lead = await boughtLead(app);
    await sendQuoteForm(app, lead.digger.id, lead.threadId, { type: "fixed", amount: "800", included: "Everything" });
    expect((await threadRow(lead.threadId)).diggerFirstAt).toBeInstanceOf(Date);
    await view(lead.client, lead.threadId);
    expect((await threadRow(lead.threadId)).clientOpenedAt).toBeInstanceOf(Date);
  });

  it("is never an operator's look: the thread's address is theirs to 404, and the console's queue opens nothing", async () => {
    const lead = await boughtLead(app);
    await say(lead.digger, lead.threadId, "Pay me outside the site, please.");
    const [message] = await db().select({ id: messages.id }).from(messages).where(eq(messages.threadId, lead.threadId));
    await db().insert(messageReports).values({ messageId: message!.id, reporterId: lead.client.id, reason: "Asks for payment outside the site" });
    const operator = await signUpOperator(app);

    expect((await operator.client.get(`/messages/${lead.threadId}`)).status).toBe(404);
    const queue = decodeHtml(await (await operator.client.get("/ops/messages")).text());
    expect(queue).toContain("Pay me outside the site, please.");
    expect(await operator.client.get(`/ops/users/${lead.client.id}`).then((r) => r.status)).toBe(200);
    expect((await threadRow(lead.threadId)).clientOpenedAt).toBeNull();
  });
});

describe("the pause of a lead nobody can reach", () => {
  it("pauses a gig whose covered purchase is due with no thread opened, tells the client once, and takes it off every list", async () => {
    const lead = await dueLead({ clientName: "Pia Paused" });
    expect(await listedEverywhere(lead.gig)).toEqual(everywhere(true));

    expect(await pauseGig(app, lead.gig.id)).toBe(true);
    expect(await paused(lead.gig.id)).toBe(true);
    expect(await whyNotForSale(db(), lead.gig.id)).toBe("paused");
    expect(await listedEverywhere(lead.gig)).toEqual(everywhere(false));

    // Once per pause: a second check changes nothing and tells nobody again.
    expect(await pauseGig(app, lead.gig.id)).toBe(false);
    const notice = awaitingReplyNotice(lead.gig.title);
    const bell = await db().select().from(notifications).where(and(eq(notifications.userId, lead.client.id), eq(notifications.kind, "gig.awaiting-reply")));
    expect(bell.map((n) => [n.text, n.link])).toEqual([[notice, "/messages"]]);
    expect((await mailTo(app, lead.client.email)).filter((m) => m.subject === notice)).toHaveLength(1);

    // The gig page to another digger, and their Buy; the digger who bought it keeps theirs.
    const other = await diggerWithProfile(app);
    expect(decodeHtml(await (await other.client.get(`/gig/${lead.gig.id}`)).text())).toContain(GUARANTEE_TEXTS.paused);
    const buy = await other.client.post(`/gig/${lead.gig.id}`, { intent: "purchase" });
    expect(buy.status).toBe(409);
    expect(decodeHtml(await buy.text())).toContain(GUARANTEE_TEXTS.paused);
    const own = decodeHtml(await (await lead.digger.client.get(`/gig/${lead.gig.id}`)).text());
    expect(own).toContain("You have purchased this lead.");
    expect(own).not.toContain(GUARANTEE_TEXTS.paused);
    // The client sees their own gig as before.
    expect(decodeHtml(await (await lead.client.client.get(`/gig/${lead.gig.id}`)).text())).toContain("This is your gig");
  });

  it("does not pause while any of the gig's threads is opened or answered, before the due time, or without a covered purchase", async () => {
    // Two buyers: the client opened the second one's thread only.
    const first = await dueLead();
    const second = await boughtLead(app, { client: first.client, gig: first.gig });
    await say(second.digger, second.threadId);
    await view(first.client, second.threadId);
    expect(await pauseGig(app, first.gig.id)).toBe(false);

    // The client replied (by e-mail, say) without opening: reachable.
    const replied = await dueLead();
    await db().insert(messages).values({ threadId: replied.threadId, senderId: replied.client.id, body: "Yes, Monday works." });
    expect((await threadRow(replied.threadId)).clientOpenedAt).toBeNull();
    expect(await pauseGig(app, replied.gig.id)).toBe(false);

    // Covered, not due yet.
    const waiting = await boughtLead(app);
    await say(waiting.digger, waiting.threadId);
    expect(await pauseGig(app, waiting.gig.id)).toBe(false);

    // Not covered: the first message came more than 24 hours after buying.
    const late = await boughtLead(app);
    await moveGuaranteeBack(app, late.purchaseId, 30);
    await say(late.digger, late.threadId);
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, late.purchaseId));
    expect(purchase!.guaranteeDueAt).toBeNull();
    expect(await pauseGig(app, late.gig.id)).toBe(false);

    for (const gigId of [first.gig.id, replied.gig.id, waiting.gig.id, late.gig.id]) expect(await paused(gigId)).toBe(false);
  });

  it("puts the gig back on sale as soon as the client opens any of its threads: listed, its alerts again, Buy open", async () => {
    const lead = await dueLead();
    const quiet = await boughtLead(app, { client: lead.client, gig: lead.gig });
    expect(await pauseGig(app, lead.gig.id)).toBe(true);
    expect(await jobOf(db(), "alerts.gig", "gigId", lead.gig.id)).toBeUndefined();

    // The other buyer's thread, where nothing was written yet: the client is back.
    await view(lead.client, quiet.threadId);
    expect(await paused(lead.gig.id)).toBe(false);
    expect(await whyNotForSale(db(), lead.gig.id)).toBeNull();
    expect(await listedEverywhere(lead.gig)).toEqual(everywhere(true));
    expect(await jobOf(db(), "alerts.gig", "gigId", lead.gig.id)).toBeDefined();
    const other = await diggerWithProfile(app);
    expect(location(await other.client.post(`/gig/${lead.gig.id}`, { intent: "purchase" }))).toMatch(/^\/checkout\/test_cs_/);

    // Once the client opened a thread of the gig, the check does not pause it again.
    await view(lead.client, lead.threadId);
    expect(await pauseGig(app, lead.gig.id)).toBe(false);
  });

  it("completes a checkout that was open when the gig paused (the hold was taken while it was for sale), unless the spots are gone", async () => {
    const client = await signUpAs(app, "consumer", "Carla Checkout");
    const gig = await insertGig(app, client.id, { maxDiggers: 2 });
    const lead = await boughtLead(app, { client, gig });
    const late = await diggerWithProfile(app);
    const open = await insertPurchase(app, gig, late.diggerId, { status: "pending", purchasedAt: null });
    await say(lead.digger, lead.threadId);
    await moveGuaranteeBack(app, lead.purchaseId);
    expect(await pauseGig(app, gig.id)).toBe(true);
    expect(await completeCheckout(app.services, open.providerSessionId!, "pi_paused")).toBe("completed");
    // Now full: paused or not, it says full, and a later payment is refunded as full.
    expect(await whyNotForSale(db(), gig.id)).toBe("full");
    const stale = await insertPurchase(app, gig, (await diggerWithProfile(app)).diggerId, { status: "pending", purchasedAt: null });
    expect(await completeCheckout(app.services, stale.providerSessionId!, "pi_stale")).toBe("full_refunded");
  });
});

describe("the page cache of signed-out visitors", () => {
  it("is emptied when the client's opening puts a paused gig back on sale, though the thread's page is a GET", async () => {
    const cached = await createTestApp({ PAGE_CACHE_SECONDS: "60" });
    try {
      const lead = await boughtLead(cached);
      await say(lead.digger, lead.threadId);
      await moveGuaranteeBack(cached, lead.purchaseId);
      expect(await pauseGig(cached, lead.gig.id)).toBe(true);
      const browse = () => new SessionClient(cached).get(`/browse-gigs?q=${encodeURIComponent(lead.gig.title)}`);
      expect(await (await browse()).text()).not.toContain(`/gig/${lead.gig.id}`);
      expect((await browse()).headers.get("X-Page-Cache")).toBe("hit");

      expect((await lead.client.client.get(`/messages/${lead.threadId}`)).status).toBe(200);
      await vi.waitFor(async () => expect(await (await browse()).text()).toContain(`/gig/${lead.gig.id}`), { timeout: 5_000, interval: 50 });
    } finally {
      await cached.close();
    }
  }, 60_000);
});

describe("/dev/clock, the browser tests' way to move the guarantee's time", () => {
  it("moves a purchase's guarantee 48 hours back and runs the check, named by its thread or itself", async () => {
    const lead = await boughtLead(app);
    await say(lead.digger, lead.threadId);
    const before = (await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId)))[0]!;
    const visitor = new SessionClient(app);
    expect((await visitor.get("/dev/clock")).status).toBe(200);
    const moved = await visitor.post("/dev/clock", { id: lead.threadId });
    expect(moved.status).toBe(200);
    expect(decodeHtml(await moved.text())).toContain("its gig paused");
    const after = (await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId)))[0]!;
    expect(before.guaranteeDueAt!.getTime() - after.guaranteeDueAt!.getTime()).toBe(48 * 3_600_000);
    expect(before.purchasedAt!.getTime() - after.purchasedAt!.getTime()).toBe(48 * 3_600_000);
    expect(await paused(lead.gig.id)).toBe(true);
    // By the purchase's id: 48 hours more.
    expect((await visitor.post("/dev/clock", { id: lead.purchaseId })).status).toBe(200);
    const again = (await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId)))[0]!;
    expect(after.guaranteeDueAt!.getTime() - again.guaranteeDueAt!.getTime()).toBe(48 * 3_600_000);
    expect((await visitor.post("/dev/clock", { id: crypto.randomUUID() })).status).toBe(404);
  });

  it("answers 404 in production, and moves nothing", async () => {
    const lead = await boughtLead(app);
    await say(lead.digger, lead.threadId);
    const production = await createTestApp(
      PRODUCTION_ENV,
      { database: app.database },
    );
    try {
      expect(production.config.mode).toBe("production");
      expect((await production.request("/dev/clock")).status).toBe(404);
      const form = new URLSearchParams({ id: lead.threadId });
      const posted = await production.request("/dev/clock", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      expect(posted.status).toBe(404);
      const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId));
      expect(purchase!.guaranteeDueAt!.getTime()).toBeGreaterThan(Date.now());
      expect(await paused(lead.gig.id)).toBe(false);
    } finally {
      await production.close();
    }
  }, 60_000);
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("the pause and the client's opening at once (PostgreSQL)", () => {
  it("never leaves a gig paused once its client's opening committed, whichever commits first", async () => {
    for (let round = 0; round < 6; round += 1) {
      const lead = await dueLead();
      const [opened, pausedNow] = await Promise.all([lead.client.client.get(`/messages/${lead.threadId}`), pauseGig(app, lead.gig.id)]);
      expect(opened.status).toBe(200);
      expect((await threadRow(lead.threadId)).clientOpenedAt).toBeInstanceOf(Date);
      // Either the pause came first and the opening lifted it, or the opening came first and no pause followed.
      expect(await paused(lead.gig.id), `round ${round} (pause returned ${pausedNow})`).toBe(false);
    }
  }, 120_000);
});
