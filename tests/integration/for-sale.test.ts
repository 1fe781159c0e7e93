/**
 * One rule for "is this lead for sale" (issue 31, server/leads/for-sale.ts): each clause of it
 * (published, not deleted, not hidden, its client neither suspended nor deleted, open, not full,
 * no digger hired unless kept open for more (issue 47), not paused by the reply guarantee (issue
 * 48); and checkouts holding every spot left) is asked of every place that applies it, so that the
 * places cannot drift apart: Browse Gigs, the gig page's Buy, starting a purchase, the lead
 * alerts' matching, the sitemap and the landing page's newest gigs.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GIG_HIRED, LEAD_FULL, SPOTS_HELD } from "../../core/lead-spots.ts";
import { GUARANTEE_TEXTS } from "../../core/reply-guarantee.ts";
import { alertGig } from "../../server/alerts/fan-out.ts";
import { gigs, leadPurchases, users } from "../../server/db/schema.ts";
import { whyNotForSale } from "../../server/leads/for-sale.ts";
import { getLandingShowcase } from "../../server/marketing/landing.ts";
import { changeUser, flashAfter, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { moveGuaranteeBack, pauseGig, say } from "../support/guarantee.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase, type TestDigger, type TestGig } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

const CLOSED = "This gig is closed and its lead can no longer be purchased.";
const BUY_TEXT = "Buy this lead to see the client's contact details.";

type State =
  | "for sale"
  | "held"
  | "full"
  | "closed"
  | "hired"
  | "hired, kept open"
  | "paused"
  | "unpublished"
  | "deleted gig"
  | "hidden"
  | "owner suspended"
  | "owner deleted";

/** What each place must say of a gig in that state. */
const EXPECTED: Record<State, { listed: boolean; why: string | null }> = {
  "for sale": { listed: true, why: null },
  // Checkouts holding every spot keep other buyers out but never take the gig off the lists (decision 0030).
  held: { listed: true, why: "held" },
  full: { listed: false, why: "full" },
  closed: { listed: false, why: "closed" },
  // A hire ends the sale at once; 'Keep it open for more diggers' puts it back (issue 47).
  hired: { listed: false, why: "hired" },
  "hired, kept open": { listed: true, why: null },
  // Its client opened none of its threads 48 hours after a covered first message (issue 48).
  paused: { listed: false, why: "paused" },
  unpublished: { listed: false, why: "gone" },
  "deleted gig": { listed: false, why: "gone" },
  hidden: { listed: false, why: "gone" },
  "owner suspended": { listed: false, why: "gone" },
  "owner deleted": { listed: false, why: "gone" },
};

describe("one rule for a lead for sale, asked by every place alike", () => {
  let app: TestApp;
  let operator: TestUser;
  let holder: TestDigger;

  beforeAll(async () => {
    app = await createTestApp();
    operator = await signUpAs(app, "consumer", "Sale Operator");
    await changeUser(app, operator.id, { operatorSince: new Date() });
    holder = await diggerWithProfile(app);
  }, 60_000);
  afterAll(() => app.close());

  /** A new gig (the newest of all) of a new client, put in `state` the way the site does it. */
  async function gigIn(state: State): Promise<TestGig> {
    const client = await signUpAs(app, "consumer", `Sale Client ${randomUUID().slice(0, 8)}`);
    const db = app.database.db;
    // Unconfirmed e-mail: the database's trigger keeps the client's gigs unpublished (decision 0012).
    if (state === "unpublished") await db.update(users).set({ emailVerified: false }).where(eq(users.id, client.id));
    const gig = await insertGig(app, client.id, { maxDiggers: state === "full" || state === "held" ? 1 : 3 });
    const ok = (response: Response) => expect(response.status, state).toBeLessThan(400);
    switch (state) {
      case "held":
        await insertPurchase(app, gig, holder.diggerId, { status: "pending", purchasedAt: null });
        break;
      case "full":
        await insertPurchase(app, gig, holder.diggerId);
        await db.update(gigs).set({ purchaseCount: 1 }).where(eq(gigs.id, gig.id));
        break;
      case "closed":
        ok(await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "closed" }));
        break;
      case "hired":
      case "hired, kept open": {
        // Marked as hired in the Diggers dialog (accepting a quote records the same hire).
        const hired = await diggerWithProfile(app);
        await insertPurchase(app, gig, hired.diggerId);
        await db.update(gigs).set({ purchaseCount: 1 }).where(eq(gigs.id, gig.id));
        ok(await client.client.post(`/my-gigs/${gig.id}/diggers`, { intent: "hire", diggerId: hired.diggerId }));
        if (state === "hired, kept open") ok(await client.client.post("/my-gigs", { intent: "keep-open", gigId: gig.id }));
        break;
      }
      case "paused": {
        // A digger writes within a day of buying; 48 hours on, nobody opened the thread.
        const lead = await boughtLead(app, { client, gig });
        await say(lead.digger, lead.threadId);
        await moveGuaranteeBack(app, lead.purchaseId);
        expect(await pauseGig(app, gig.id)).toBe(true);
        break;
      }
      case "deleted gig":
        // A checkout once started keeps the row: the gig is marked deleted (migration 0025).
        await insertPurchase(app, gig, holder.diggerId, { status: "cancelled", purchasedAt: null });
        ok(await client.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" }));
        break;
      case "hidden":
        ok(await operator.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason: "Asks for payment off the site" }));
        break;
      case "owner suspended":
        ok(await operator.client.post(`/ops/users/${client.id}`, { intent: "suspend", reason: "Fraudulent gigs" }));
        break;
      case "owner deleted":
        ok(await client.client.post("/account", { intent: "delete-account", confirmEmail: client.email }));
        // Deleting the account closed the gig; opened again, the deleted owner alone still takes it off sale.
        await db.update(gigs).set({ status: "open" }).where(eq(gigs.id, gig.id));
        break;
      case "for sale":
      case "unpublished":
        break;
    }
    return gig;
  }

  it.each(Object.keys(EXPECTED) as State[])("a gig %s: browse, the gig page, purchase, alerts, sitemap and landing agree", async (state) => {
    const { listed, why } = EXPECTED[state];
    const gig = await gigIn(state);
    const db = app.database.db;

    expect(await whyNotForSale(db, gig.id), "the rule").toBe(why);

    // The landing's newest gigs: this gig is the newest of all.
    const landing = await getLandingShowcase(db);
    expect(landing.gigs.some((g) => g.id === gig.id), "landing").toBe(listed);

    const visitor = new SessionClient(app);
    // The search names the gig; the page echoes it in the search box, so the gig's link is what counts.
    const browse = await (await visitor.get(`/browse-gigs?q=${encodeURIComponent(gig.title)}`)).text();
    expect(browse.includes(`/gig/${gig.id}`), "Browse Gigs").toBe(listed);
    const sitemap = await (await app.request("/sitemap.xml")).text();
    expect(sitemap.includes(`/gig/${gig.id}`), "sitemap").toBe(listed);
    expect((await alertGig(db, gig.id)) !== null, "lead alerts").toBe(listed);

    // The gig page of a digger who neither bought it nor holds a spot.
    const digger = await diggerWithProfile(app);
    const page = await digger.client.get(`/gig/${gig.id}`);
    if (why === "gone") {
      expect(location(page), "gig page").toBe("/browse-gigs");
    } else {
      const html = decodeHtml(await page.text());
      expect(html.includes(BUY_TEXT), "gig page Buy").toBe(why === null);
      expect(html.includes(SPOTS_HELD), "gig page held").toBe(why === "held");
      expect(html.includes(LEAD_FULL), "gig page full").toBe(why === "full");
      expect(html.includes(GIG_HIRED), "gig page hired").toBe(why === "hired");
      expect(html.includes(GUARANTEE_TEXTS.paused), "gig page paused").toBe(why === "paused");
    }

    // Purchase Lead: a checkout when for sale, else the rule's own message.
    const bought = await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    if (why === null) {
      expect(location(bought), "purchase").toMatch(/^\/checkout\/test_cs_/);
    } else if (why === "gone") {
      expect(location(bought), "purchase").toBe("/browse-gigs");
      expect(await flashAfter(digger.client, "/browse-gigs")).toContain("Gig not found");
    } else {
      expect(bought.status, "purchase").toBe(409);
      const message = { closed: CLOSED, hired: GIG_HIRED, full: LEAD_FULL, held: SPOTS_HELD, paused: GUARANTEE_TEXTS.paused }[why as "closed" | "hired" | "full" | "held" | "paused"];
      expect(decodeHtml(await bought.text()), "purchase").toContain(message);
    }
  }, 60_000);

  it("a gig written for a deleted account is not for sale, and follows its account's deletion either way", async () => {
    const client = await signUpAs(app, "consumer", `Sale Deleted ${randomUUID().slice(0, 8)}`);
    const db = app.database.db;
    const before = await insertGig(app, client.id);
    await db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, client.id));
    const after = await insertGig(app, client.id);
    expect(await whyNotForSale(db, before.id)).toBe("gone");
    expect(await whyNotForSale(db, after.id)).toBe("gone");
    await db.update(users).set({ deletedAt: null }).where(eq(users.id, client.id));
    expect(await whyNotForSale(db, before.id)).toBeNull();
    expect(await whyNotForSale(db, after.id)).toBeNull();
  });

  it("a checkout completing does not count its own hold: the last spot it holds is still its to pay", async () => {
    const gig = await gigIn("held");
    const db = app.database.db;
    const [own] = await db.select({ id: leadPurchases.id }).from(leadPurchases).where(eq(leadPurchases.gigId, gig.id));
    expect(await whyNotForSale(db, gig.id)).toBe("held");
    expect(await whyNotForSale(db, gig.id, own!.id)).toBeNull();
  });
});
