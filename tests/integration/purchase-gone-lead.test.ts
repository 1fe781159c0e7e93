/**
 * Paying for a lead that is gone (issue 16, finding 3): a checkout started before the client
 * closed or deleted the gig (issue 30) or deleted their account, or before an operator hid the
 * gig or suspended its client (issue 22), is refunded in full when paid, through the test
 * checkout and through Stripe's webhook. The digger is told by e-mail and a flash; the client
 * hears nothing, and the client's contact details reach the digger nowhere. And checkouts
 * expire when their hold on a spot ends (30 minutes, decision 0019), like Stripe's.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gigs, leadPurchases, refunds } from "../../server/db/schema.ts";
import { CHECKOUT_MESSAGES } from "../../server/leads/test-checkout.ts";
import { CHECKOUT_LIFETIME_MS } from "../../server/payments/provider.ts";
import { EXPIRY_MARGIN_S } from "../../server/payments/stripe-provider.ts";
import { changeUser, flashAfter, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile, insertGig, mailTo, type TestDigger, type TestGig } from "../support/leads.ts";
import { location } from "../support/session-client.ts";
import { deliverStripeEvent, startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";

const GONE = ["closed", "gig-deleted", "deleted", "hidden", "suspended"] as const;
type Gone = (typeof GONE)[number];
const GONE_WHEN: Record<Gone, string> = {
  closed: "gig was closed",
  "gig-deleted": "client deleted the gig (a checkout does not keep them from it)",
  deleted: "client deleted their account",
  hidden: "gig was hidden by an operator",
  suspended: "client was suspended by an operator",
};

const purchasesOf = (app: TestApp, gigId: string) => app.database.db.select().from(leadPurchases).where(eq(leadPurchases.gigId, gigId));
const purchaseCount = async (app: TestApp, gigId: string) =>
  (await app.database.db.select({ n: gigs.purchaseCount }).from(gigs).where(eq(gigs.id, gigId)))[0]!.n;

/** A client with an open gig whose contact details are unique, and a digger with a profile. */
async function parties(app: TestApp) {
  const client = await signUpAs(app, "consumer", `Gone Client ${randomUUID().slice(0, 8)}`);
  const digger = await diggerWithProfile(app);
  const gig = await insertGig(app, client.id);
  return { client, digger, gig };
}

const operators = new WeakMap<TestApp, TestUser>();
async function operatorOf(app: TestApp): Promise<TestUser> {
  let operator = operators.get(app);
  if (!operator) {
    operator = await signUpAs(app, "consumer", "Gone Operator");
    await changeUser(app, operator.id, { operatorSince: new Date() });
    operators.set(app, operator);
  }
  return operator;
}

/** The client closes the gig on My Gigs or deletes their account, or an operator hides the gig or suspends the client. */
async function makeGone(app: TestApp, client: TestUser, gig: TestGig, how: Gone) {
  const operator = how === "hidden" || how === "suspended" ? await operatorOf(app) : null;
  const response =
    how === "closed"
      ? await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "closed" })
      : how === "gig-deleted"
        ? await client.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" })
        : how === "deleted"
          ? await client.client.post("/account", { intent: "delete-account", confirmEmail: client.email })
          : how === "hidden"
            ? await operator!.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason: "Asks for payment off the site" })
            : await operator!.client.post(`/ops/users/${client.id}`, { intent: "suspend", reason: "Fraudulent gigs" });
  expect(response.status, how).toBeLessThan(400);
}

/** Nothing completed, one full refund sent, the digger told, the client not, no contact details shown. */
async function expectRefundedAndHidden(app: TestApp, parts: { client: TestUser; digger: TestDigger; gig: TestGig }, clientMailBefore: number) {
  const { client, digger, gig } = parts;
  const rows = await purchasesOf(app, gig.id);
  expect(rows.map((r) => r.status)).toEqual(["cancelled"]);
  expect(await purchaseCount(app, gig.id)).toBe(0);
  const refundRows = await app.database.db.select().from(refunds).where(eq(refunds.leadPurchaseId, rows[0]!.id));
  expect(refundRows).toHaveLength(1);
  expect(refundRows[0]).toMatchObject({ reason: "lead_unavailable", amountCents: rows[0]!.amountPaidCents, status: "succeeded" });
  expect(refundRows[0]!.providerRefundId).toBeTruthy();

  const diggerMail = await mailTo(app, digger.email);
  const notice = diggerMail.find((m) => m.subject === `The lead for "${gig.title}" is no longer available`);
  expect(notice?.kind).toBe("transactional");
  expect(notice?.textBody).toContain("refunded in full");
  // Whether closed, deleted, hidden or its client gone: the e-mail does not say which.
  expect(notice?.textBody).toContain(`The gig "${gig.title}" was closed or taken down before your payment went through`);
  expect(notice?.textBody).not.toContain(client.email);
  expect(notice?.textBody).not.toContain(client.fullName);
  expect(await mailTo(app, client.email)).toHaveLength(clientMailBefore);

  for (const path of ["/my-leads", "/my-leads.data"]) {
    const body = decodeHtml(await (await digger.client.get(path)).text());
    expect(body, path).not.toContain(client.email);
    expect(body, path).not.toContain(client.fullName);
    expect(body, path).not.toContain(gig.contactPreferences);
    expect(body, path).not.toContain(gig.title);
  }
}

describe("paying a test checkout for a lead that is gone", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  for (const how of GONE) {
    it(`refunds in full and shows nothing of the client when the ${GONE_WHEN[how]} after the checkout started`, async () => {
      const parts = await parties(app);
      const { client, digger, gig } = parts;
      const checkout = location(await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }))!;
      expect(checkout).toMatch(/^\/checkout\/test_cs_/);
      await makeGone(app, client, gig, how);
      const clientMail = (await mailTo(app, client.email)).length;

      const paid = await digger.client.post(checkout, { intent: "pay" });
      // A deleted client's gig page is gone too, and so is a withdrawn gig's to anyone who did
      // not buy it: the digger goes back to the list of gigs.
      const back = how === "closed" ? `/gig/${gig.id}` : "/browse-gigs";
      expect(location(paid)).toBe(back);
      expect(decodeHtml(await flashAfter(digger.client, back))).toContain(CHECKOUT_MESSAGES.unavailable);
      await expectRefundedAndHidden(app, parts, clientMail);
      // Paying the same checkout again changes nothing.
      expect(location(await digger.client.post(checkout, { intent: "pay" }))).toBe(`/gig/${gig.id}`);
      expect(await app.database.db.select().from(refunds).where(eq(refunds.leadPurchaseId, (await purchasesOf(app, gig.id))[0]!.id))).toHaveLength(1);
    });
  }

  it("completes a checkout whose gig was closed and opened again before the payment", async () => {
    const { client, digger, gig } = await parties(app);
    const checkout = location(await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }))!;
    await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "closed" });
    await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "open" });
    expect(location(await digger.client.post(checkout, { intent: "pay" }))).toBe(`/gig/${gig.id}?payment=success`);
    expect((await purchasesOf(app, gig.id)).map((r) => r.status)).toEqual(["completed"]);
    expect(decodeHtml(await (await digger.client.get("/my-leads")).text())).toContain(client.email);
  });

  it("ends a test checkout whose hold ran out (30 minutes): it can no longer be shown or paid", async () => {
    const { digger, gig } = await parties(app);
    const age = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;
    const start = async () => {
      const checkout = location(await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }))!;
      const sessionId = checkout.split("/").pop()!;
      return { checkout, sessionId };
    };
    const setAge = (sessionId: string, ms: number) =>
      app.database.db.update(leadPurchases).set({ createdAt: age(ms) }).where(eq(leadPurchases.providerSessionId, sessionId));
    const statusOf = async (sessionId: string) =>
      (await app.database.db.select({ s: leadPurchases.status }).from(leadPurchases).where(eq(leadPurchases.providerSessionId, sessionId)))[0]!.s;

    // Opened after its 30 minutes: ended, back to the gig with the message.
    const opened = await start();
    await setAge(opened.sessionId, CHECKOUT_LIFETIME_MS + 60_000);
    const shown = await digger.client.get(opened.checkout);
    expect(location(shown)).toBe(`/gig/${gig.id}`);
    expect(decodeHtml(await flashAfter(digger.client, `/gig/${gig.id}`))).toContain(CHECKOUT_MESSAGES.expired);
    expect(await statusOf(opened.sessionId)).toBe("cancelled");

    // Paid after its 30 minutes (the page was open all along): not paid, ended.
    const paid = await start();
    await setAge(paid.sessionId, CHECKOUT_LIFETIME_MS + 60_000);
    expect(location(await digger.client.post(paid.checkout, { intent: "pay" }))).toBe(`/gig/${gig.id}`);
    expect(decodeHtml(await flashAfter(digger.client, `/gig/${gig.id}`))).toContain(CHECKOUT_MESSAGES.expired);
    expect(await statusOf(paid.sessionId)).toBe("cancelled");
    expect(await purchaseCount(app, gig.id)).toBe(0);
    expect(await app.database.db.select().from(refunds).where(eq(refunds.leadPurchaseId, (await purchasesOf(app, gig.id))[0]!.id))).toHaveLength(0);

    // Within its 30 minutes it still pays.
    const fresh = await start();
    await setAge(fresh.sessionId, CHECKOUT_LIFETIME_MS - 60_000);
    expect(location(await digger.client.post(fresh.checkout, { intent: "pay" }))).toBe(`/gig/${gig.id}?payment=success`);
    expect(await statusOf(fresh.sessionId)).toBe("completed");
  });
});

describe("paying through Stripe for a lead that is gone (local stand-in for Stripe's API)", () => {
  const SECRET = "whsec_gone_lead";
  let stripeApi: StripeStandIn;
  let app: TestApp;

  beforeAll(async () => {
    stripeApi = await startStripeStandIn();
    app = await createTestApp({ STRIPE_SECRET_KEY: "sk_test_gone", STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: stripeApi.url });
  });
  afterAll(async () => {
    await app.close();
    await stripeApi.stop();
  });

  const deliver = (type: string, session: Record<string, unknown>) => deliverStripeEvent(app, SECRET, type, session);
  async function startCheckout(digger: TestDigger, gig: TestGig) {
    const response = await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    expect(response.status).toBe(302);
    return { sessionId: [...stripeApi.sessions.keys()].at(-1)!, request: stripeApi.requests.at(-1)! };
  }

  for (const how of GONE) {
    it(`refunds at Stripe in full when the ${GONE_WHEN[how]} before the payment arrived`, async () => {
      const parts = await parties(app);
      const { client, digger, gig } = parts;
      const { sessionId } = await startCheckout(digger, gig);
      // Paid at Stripe before the client deleted the gig: Stripe refuses to expire the session, and its event arrives after.
      if (how === "gig-deleted") stripeApi.sessions.get(sessionId)!.status = "complete";
      await makeGone(app, client, gig, how);
      if (how === "gig-deleted") {
        expect(stripeApi.requests.filter((r) => r.path === `/v1/checkout/sessions/${sessionId}/expire`).length).toBeGreaterThan(0);
      }
      const clientMail = (await mailTo(app, client.email)).length;

      const paymentIntent = `pi_gone_${randomUUID().slice(0, 8)}`;
      const event = { id: sessionId, payment_status: "paid", payment_intent: paymentIntent };
      expect((await deliver("checkout.session.completed", event)).status).toBe(200);
      await expectRefundedAndHidden(app, parts, clientMail);
      const [purchase] = await purchasesOf(app, gig.id);
      expect(purchase!.providerPaymentId).toBe(paymentIntent);
      const calls = stripeApi.requests.filter((r) => r.path === "/v1/refunds" && r.form.get("payment_intent") === paymentIntent);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.form.get("amount")).toBe(String(purchase!.amountPaidCents));

      // Stripe delivers the event again: no second refund, no second e-mail.
      expect((await deliver("checkout.session.completed", event)).status).toBe(200);
      expect(new Set(stripeApi.requests.filter((r) => r.path === "/v1/refunds" && r.form.get("payment_intent") === paymentIntent).map((r) => r.idempotencyKey)).size).toBe(1);
      expect((await mailTo(app, digger.email)).filter((m) => m.subject.includes("is no longer available"))).toHaveLength(1);
    });
  }

  it("ends the open Checkout Sessions of a gig its client deletes, at Stripe; Stripe's expiry then ends the purchase", async () => {
    const { client, digger, gig } = await parties(app);
    const other = await diggerWithProfile(app);
    const { sessionId: cancelled } = await startCheckout(digger, gig);
    // The first digger came back from Stripe's page with Cancel: the session stays open at Stripe.
    const { sessionId: open } = await startCheckout(other, gig);
    expect((await client.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" })).status).toBe(302);
    for (const id of [cancelled, open]) {
      expect(stripeApi.requests.filter((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${id}/expire`)).toHaveLength(1);
      expect(stripeApi.sessions.get(id)!.status).toBe("expired");
      expect((await deliver("checkout.session.expired", { id, payment_status: "unpaid" })).status).toBe(200);
    }
    expect((await purchasesOf(app, gig.id)).map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(await app.database.db.select().from(refunds).innerJoin(leadPurchases, eq(leadPurchases.id, refunds.leadPurchaseId)).where(eq(leadPurchases.gigId, gig.id))).toHaveLength(0);
  });

  it("asks Stripe to end the Checkout Session when the hold ends (within Stripe's bounds), and ends the purchase when it does", async () => {
    const { digger, gig } = await parties(app);
    const before = Math.floor(Date.now() / 1000);
    const { sessionId, request } = await startCheckout(digger, gig);
    const expiresAt = Number(request.form.get("expires_at"));
    // Stripe refuses less than 30 minutes from the session's creation: the hold, plus a margin for clocks.
    expect(expiresAt).toBeGreaterThanOrEqual(before + CHECKOUT_LIFETIME_MS / 1000);
    expect(expiresAt).toBeLessThanOrEqual(before + CHECKOUT_LIFETIME_MS / 1000 + EXPIRY_MARGIN_S + 5);

    expect((await deliver("checkout.session.expired", { id: sessionId, payment_status: "unpaid" })).status).toBe(200);
    expect((await purchasesOf(app, gig.id)).map((r) => r.status)).toEqual(["cancelled"]);
  });
});
