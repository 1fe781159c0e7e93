/**
 * Payment integrity (issue 10), beyond purchase.test.ts and lead-issues.test.ts: a tampered
 * amount on the test checkout, a forged, a stale, an altered and a replayed Stripe webhook for
 * a real session, two different checkouts of one lead completing at the same time, the same
 * refund sent concurrently, and issues on purchases that are not completed. Each refusal is
 * checked against a digest of every guarded table (tests/security/world.ts): nothing changed.
 * (Approving one issue concurrently is in lead-issues.test.ts: one decision, one refund row.)
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leadPriceCents } from "../../core/lead-price.ts";
import { HOLD_MINUTES } from "../../core/lead-spots.ts";
import { gigs, leadIssues, leadPurchases, refunds } from "../../server/db/schema.ts";
import { recordRefund, sendRefund } from "../../server/leads/refunds.ts";
import type { TestApp } from "../support/app.ts";
import { ageCheckout, insertPurchase } from "../support/leads.ts";
import { location } from "../support/session-client.ts";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";
import { openSecurityWorld, type SecurityWorld, WORLD_SETUP_MS } from "../security/fixture.ts";
import { fingerprint, type World } from "../security/world.ts";

const purchasesOf = (app: TestApp, gigId: string) => app.database.db.select().from(leadPurchases).where(eq(leadPurchases.gigId, gigId));
const purchaseCount = async (app: TestApp, gigId: string) =>
  (await app.database.db.select({ n: gigs.purchaseCount }).from(gigs).where(eq(gigs.id, gigId)))[0]!.n;

describe("test checkout and refunds (test provider)", () => {
  let security: SecurityWorld;
  let app: TestApp;
  let world: World;
  beforeAll(async () => ({ app, world } = security = await openSecurityWorld()), WORLD_SETUP_MS);
  afterAll(() => security.close());

  it("ignores an amount sent with the Pay form: the purchase is paid at the server's price", async () => {
    const checkout = await world.freshCheckout();
    const price = checkout.amountPaidCents;
    const paid = await world.client("owningDigger").post(`/checkout/${checkout.providerSessionId}`, {
      intent: "pay",
      amount: "1",
      amountCents: "1",
      amountPaidCents: "1",
      "line_items[0][price_data][unit_amount]": "1",
      status: "completed",
      gigId: world.gig.id,
    });
    expect(location(paid)).toBe(`/gig/${checkout.gigId}?payment=success`);
    const [row] = await purchasesOf(app, checkout.gigId);
    expect(row).toMatchObject({ status: "completed", amountPaidCents: price, gigId: checkout.gigId });
    expect(price).toBe(leadPriceCents(world.gig.budgetMinCents));
  });

  it("two different checkouts of one lead paid at the same time: one purchase, the other refunded in full", async () => {
    const gig = await world.freshGig();
    const digger = world.users.owningDigger;
    const [a, b] = await Promise.all([1, 2].map(() => insertPurchase(app, gig, digger.diggerId, { status: "pending" })));
    const responses = await Promise.all([a!, b!].map((p) => digger.client.post(`/checkout/${p.providerSessionId}`, { intent: "pay" })));
    expect(responses.map((r) => r.status)).toEqual([302, 302]);
    const rows = await purchasesOf(app, gig.id);
    expect(rows.map((r) => r.status).sort()).toEqual(["cancelled", "completed"]);
    expect(await purchaseCount(app, gig.id)).toBe(1);
    const cancelled = rows.find((r) => r.status === "cancelled")!;
    const refundRows = await app.database.db.select().from(refunds).where(eq(refunds.leadPurchaseId, cancelled.id));
    expect(refundRows).toHaveLength(1);
    expect(refundRows[0]).toMatchObject({ reason: "duplicate_payment", amountCents: cancelled.amountPaidCents, status: "succeeded" });
    // The completed one has no refund.
    const completed = rows.find((r) => r.status === "completed")!;
    expect(await app.database.db.select().from(refunds).where(eq(refunds.leadPurchaseId, completed.id))).toHaveLength(0);
  });

  it("refuses an issue report on a pending or a cancelled purchase, changing nothing", async () => {
    for (const status of ["pending", "cancelled"] as const) {
      const gig = await world.freshGig();
      const purchase = await insertPurchase(app, gig, world.users.owningDigger.diggerId, { status });
      const before = await fingerprint(app);
      const response = await world.client("owningDigger").post("/my-leads", { purchaseId: purchase.id, issueType: "mistake", description: "Posted by mistake, please refund." });
      expect(response.status, status).toBe(404);
      expect(await response.text()).toContain("Failed to report issue");
      expect(await fingerprint(app), status).toEqual(before);
    }
  });

  it("refuses to approve an issue whose purchase is not completed (no refund), changing nothing", async () => {
    for (const status of ["pending", "cancelled"] as const) {
      const gig = await world.freshGig();
      const purchase = await insertPurchase(app, gig, world.users.owningDigger.diggerId, { status });
      // Such an issue cannot be reported (above); written directly, as a stale or edited row would be.
      const [issue] = await app.database.db
        .insert(leadIssues)
        .values({ leadPurchaseId: purchase.id, diggerId: world.users.owningDigger.diggerId, issueType: "mistake", description: "Mistake", refundPercentage: 100 })
        .returning();
      const before = await fingerprint(app);
      const response = await world.client("owningClient").post(`/my-gigs/${gig.id}/issues`, { decision: "approve", issueId: issue!.id });
      expect(response.status, status).toBe(404);
      expect(await response.text()).toContain("Failed to update issue");
      expect(await fingerprint(app), status).toEqual(before);
    }
  });
});

describe("Stripe webhooks and refunds (local stand-in for Stripe's API)", () => {
  const SECRET = "whsec_security_payments";
  const stripe = new Stripe("sk_test_unused");
  let stripeApi: StripeStandIn;
  let security: SecurityWorld;
  let app: TestApp;
  let world: World;

  beforeAll(async () => {
    stripeApi = await startStripeStandIn();
    const env = { STRIPE_SECRET_KEY: "sk_test_security", STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: stripeApi.url };
    ({ app, world } = security = await openSecurityWorld({ env }));
  }, WORLD_SETUP_MS);
  afterAll(async () => {
    await security.close();
    await stripeApi.stop();
  });

  function signedEvent(session: Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: "event",
      type: "checkout.session.completed",
      data: { object: { object: "checkout.session", payment_status: "paid", ...session } },
    });
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET, timestamp: options.timestamp });
    return { payload, signature };
  }
  const deliver = (event: { payload: string; signature: string }) =>
    app.request("/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": event.signature },
      body: event.payload,
    });

  /** A real Checkout Session at the stand-in for a new gig, through the buy button. */
  async function realSession() {
    const gig = await world.freshGig();
    const response = await world.client("otherDigger").post(`/gig/${gig.id}`, { intent: "purchase" });
    expect(response.status).toBe(302);
    return { gig, sessionId: [...stripeApi.sessions.keys()].at(-1)! };
  }

  it("refuses a webhook for a real session signed with the wrong secret, too old, or altered after signing", async () => {
    const { gig, sessionId } = await realSession();
    const good = signedEvent({ id: sessionId, payment_intent: "pi_forged" });
    const forged = signedEvent({ id: sessionId, payment_intent: "pi_forged" }, { secret: "whsec_attacker" });
    const stale = signedEvent({ id: sessionId, payment_intent: "pi_forged" }, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const altered = { payload: good.payload.replace("pi_forged", "pi_altered"), signature: good.signature };
    const before = await fingerprint(app);
    for (const [what, event] of [["wrong secret", forged], ["an hour old", stale], ["altered", altered]] as const) {
      const response = await deliver(event);
      expect(response.status, what).toBe(400);
      expect(await response.json(), what).toEqual({ error: "Invalid signature" });
    }
    expect(await fingerprint(app)).toEqual(before);
    expect((await purchasesOf(app, gig.id))[0]!.status).toBe("pending");
  });

  it("a replayed webhook changes nothing and calls Stripe for nothing", async () => {
    const { gig, sessionId } = await realSession();
    const event = signedEvent({ id: sessionId, payment_intent: `pi_${randomUUID().slice(0, 8)}` });
    expect((await deliver(event)).status).toBe(200);
    expect((await purchasesOf(app, gig.id))[0]!.status).toBe("completed");
    const before = await fingerprint(app);
    const calls = stripeApi.requests.length;
    const replays = await Promise.all([1, 2, 3].map(() => deliver(event)));
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await fingerprint(app)).toEqual(before);
    expect(stripeApi.requests.length).toBe(calls);
    expect(await purchaseCount(app, gig.id)).toBe(1);
  });

  it("two different sessions for one lead and digger paid at the same time: one purchase, one refund at Stripe", async () => {
    const first = await realSession();
    const gig = first.gig;
    // The first checkout's hold ran out (its session is still payable in Stripe's margin): a second Buy starts a second session.
    await ageCheckout(app, first.sessionId, HOLD_MINUTES + 1);
    const second = await world.client("otherDigger").post(`/gig/${gig.id}`, { intent: "purchase" });
    expect(second.status).toBe(302);
    const secondSession = [...stripeApi.sessions.keys()].at(-1)!;
    const events = [
      signedEvent({ id: first.sessionId, payment_intent: "pi_race_one" }),
      signedEvent({ id: secondSession, payment_intent: "pi_race_two" }),
    ];
    const responses = await Promise.all(events.map(deliver));
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    const rows = await purchasesOf(app, gig.id);
    expect(rows.map((r) => r.status).sort()).toEqual(["cancelled", "completed"]);
    expect(await purchaseCount(app, gig.id)).toBe(1);
    const cancelled = rows.find((r) => r.status === "cancelled")!;
    const refundCalls = stripeApi.requests.filter((r) => r.path === "/v1/refunds" && r.form.get("payment_intent") === cancelled.providerPaymentId);
    expect(refundCalls.length).toBeGreaterThanOrEqual(1);
    expect(new Set(refundCalls.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(refundCalls[0]!.form.get("amount")).toBe(String(cancelled.amountPaidCents));
    const completed = rows.find((r) => r.status === "completed")!;
    expect(stripeApi.requests.some((r) => r.path === "/v1/refunds" && r.form.get("payment_intent") === completed.providerPaymentId)).toBe(false);
  });

  it("one refund sent three times at once reaches Stripe under one idempotency key and succeeds once", async () => {
    const gig = await world.freshGig();
    const purchase = await insertPurchase(app, gig, world.users.owningDigger.diggerId, { provider: "stripe", providerPaymentId: "pi_concurrent_refund" });
    const [issue] = await app.database.db
      .insert(leadIssues)
      .values({ leadPurchaseId: purchase.id, diggerId: world.users.owningDigger.diggerId, issueType: "mistake", description: "Mistake", refundPercentage: 100, status: "approved", resolvedAt: new Date() })
      .returning();
    const refundId = await app.database.db.transaction((tx) =>
      recordRefund(tx, app.services.emit, { leadPurchaseId: purchase.id, leadIssueId: issue!.id, reason: "issue_approved", amountCents: purchase.amountPaidCents }),
    );
    expect(await Promise.all([1, 2, 3].map(() => sendRefund(app.services, refundId)))).toEqual([true, true, true]);
    const calls = stripeApi.requests.filter((r) => r.path === "/v1/refunds" && r.form.get("payment_intent") === "pi_concurrent_refund");
    expect(new Set(calls.map((c) => c.idempotencyKey))).toEqual(new Set([`refund-${refundId}`]));
    const rows = await app.database.db.select().from(refunds).where(and(eq(refunds.leadPurchaseId, purchase.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "succeeded", amountCents: purchase.amountPaidCents });
  });
});
