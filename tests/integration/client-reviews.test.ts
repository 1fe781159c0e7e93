/**
 * The digger's review of the client (issue 51, docs/decisions/0077-two-way-reviews.md): the
 * window a hire opens (Mark as Hired, an accepted quote; not on a purchase refunded in full), the
 * digger's review written blind (the client hears that it exists, never what it says), edited
 * before publication and refused after, published with the client's at once, one per side,
 * refused on a refunded lead and outside a window; who may read and write it, and bad input.
 * Through /my-leads/{purchaseId}/review as the dialog calls it, /my-leads and the thread. On
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRUST_MESSAGES } from "../../core/reviews.ts";
import { CLIENT_REVIEW_TEXTS, reviewClientLabel, reviewedYouText, TWO_WAY_TEXTS, waitingForOtherText, type ClientReviewForm } from "../../core/two-way-reviews.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { isUniqueViolation } from "../../server/db/errors.ts";
import { clientReviews, diggerProfiles, leadPurchases, notifications, refunds, reviews, reviewWindows } from "../../server/db/schema.ts";
import { readerTime } from "../../server/reader-time.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, diggerWithProfile, mailTo, type BoughtLead } from "../support/leads.ts";
import { sendQuoteForm } from "../support/quotes.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 60_000);
afterAll(() => app.close());

const db = () => app.database.db;
const REVIEW = "Clear brief, quick answers and paid on the day. Would work for her again.";
const VALID = { rating: "4", body: REVIEW, asDescribed: "yes", easyToReach: "no" };
const reviewPath = (purchaseId: string) => `/my-leads/${purchaseId}/review`;
const answer = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error?: string; success?: string; fieldErrors?: Record<string, string> }) });
const formOf = async (client: SessionClient, purchaseId: string) => {
  const response = await client.get(reviewPath(purchaseId));
  expect(response.status).toBe(200);
  return (await response.json()) as ClientReviewForm;
};
const write = (client: SessionClient, purchaseId: string, fields: Record<string, string> = VALID) => client.post(reviewPath(purchaseId), fields);
const windowOf = async (lead: BoughtLead) =>
  (await db().select().from(reviewWindows).where(and(eq(reviewWindows.gigId, lead.gig.id), eq(reviewWindows.diggerId, lead.digger.diggerId))))[0];
const clientReviewsOf = (lead: BoughtLead) => db().select().from(clientReviews).where(and(eq(clientReviews.gigId, lead.gig.id), eq(clientReviews.diggerId, lead.digger.diggerId)));
const handleOf = async (lead: BoughtLead) => (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, lead.digger.diggerId)))[0]!.handle;
const hire = async (lead: BoughtLead) => answer(await lead.client.client.post(`/my-gigs/${lead.gig.id}/diggers`, { intent: "hire", diggerId: lead.digger.diggerId }));
/** A lead of a client named Maria, hired by Mark as Hired. */
async function hiredLead(client?: TestUser): Promise<BoughtLead> {
  const lead = await boughtLead(app, client ? { client } : { clientName: "Maria Sanchez" });
  expect(await hire(lead)).toMatchObject({ status: 200, success: TRUST_MESSAGES.hired });
  return lead;
}
const fullRefund = async (lead: BoughtLead) => {
  const [purchase] = await db().select({ paid: leadPurchases.amountPaidCents }).from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId));
  await db().insert(refunds).values({ leadPurchaseId: lead.purchaseId, reason: "lead_unavailable", amountCents: purchase!.paid, status: "succeeded", completedAt: new Date() });
};
/** The end of `lead`'s window as a reader with no time zone of their own reads it (the site's). */
const endsText = async (lead: BoughtLead) => readerTime(null, app.config).date((await windowOf(lead))!.endsAt);
const noticesTo = (userId: string, text: string) => db().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.text, text)));

describe("the window", () => {
  it("opens for 14 days with Mark as Hired, blind: the digger's form is open and empty", async () => {
    const lead = await hiredLead();
    const window = await windowOf(lead);
    expect(window).toMatchObject({ leadPurchaseId: lead.purchaseId, publishedAt: null });
    const days = (window!.endsAt.getTime() - window!.openedAt.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
    expect(await formOf(lead.digger.client, lead.purchaseId)).toEqual({
      purchaseId: lead.purchaseId,
      gigTitle: lead.gig.title,
      clientFirstName: "Maria",
      state: "open",
      closedText: null,
      review: null,
      waitingText: null,
    });
  });

  it("opens with an accepted quote", async () => {
    const lead = await boughtLead(app, { clientName: "Quinn Quoted" });
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, { type: "fixed", amount: "800", included: "Labour and materials" });
    await acceptQuote(app.services, lead.client.id, lead.threadId, sent.quoteId);
    expect(await windowOf(lead)).toMatchObject({ leadPurchaseId: lead.purchaseId, publishedAt: null });
    expect(await formOf(lead.digger.client, lead.purchaseId)).toMatchObject({ state: "open", clientFirstName: "Quinn" });
    expect(await answer(await write(lead.digger.client, lead.purchaseId))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.posted });
  });

  it("does not open for a purchase refunded in full (the hire is refused), and a bought lead not hired has none: the form is closed and a review refused", async () => {
    const refunded = await boughtLead(app);
    await fullRefund(refunded);
    expect(await hire(refunded)).toMatchObject({ status: 409, error: TRUST_MESSAGES.refundedHire });
    expect(await windowOf(refunded)).toBeUndefined();
    expect(await formOf(refunded.digger.client, refunded.purchaseId)).toMatchObject({ state: "closed", closedText: TWO_WAY_TEXTS.refunded });

    const notHired = await boughtLead(app);
    expect(await formOf(notHired.digger.client, notHired.purchaseId)).toMatchObject({ state: "closed", closedText: TWO_WAY_TEXTS.noWindow, review: null });
    expect(await answer(await write(notHired.digger.client, notHired.purchaseId))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.noWindow });
    expect(await clientReviewsOf(notHired)).toHaveLength(0);
  });

  it("refuses a new review once the 14 days are over", async () => {
    const lead = await hiredLead();
    await db()
      .update(reviewWindows)
      .set({ openedAt: sql`opened_at - interval '15 days'`, endsAt: sql`ends_at - interval '15 days'` })
      .where(and(eq(reviewWindows.gigId, lead.gig.id), eq(reviewWindows.diggerId, lead.digger.diggerId)));
    expect(await formOf(lead.digger.client, lead.purchaseId)).toMatchObject({ state: "closed", closedText: TWO_WAY_TEXTS.noWindow });
    expect(await answer(await write(lead.digger.client, lead.purchaseId))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.noWindow });
    expect(await clientReviewsOf(lead)).toHaveLength(0);
  });
});

describe("the digger's review", () => {
  it("is written blind: the client hears once that it exists and never what it says; the digger sees the waiting line on the form and on the card", async () => {
    const lead = await hiredLead();
    const handle = await handleOf(lead);
    expect(await answer(await write(lead.digger.client, lead.purchaseId))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.posted });
    const [row] = await clientReviewsOf(lead);
    expect(row).toMatchObject({ rating: 4, body: REVIEW, asDescribed: true, easyToReach: false, paidAsAgreed: null, publishedAt: null, clientId: lead.client.id, leadPurchaseId: lead.purchaseId });
    expect((await windowOf(lead))!.publishedAt).toBeNull();

    const waiting = waitingForOtherText("Maria", await endsText(lead));
    expect(await formOf(lead.digger.client, lead.purchaseId)).toMatchObject({
      state: "open",
      review: { rating: 4, body: REVIEW, asDescribed: true, easyToReach: false, paidAsAgreed: null },
      waitingText: waiting,
    });
    const myLeads = decodeHtml(await (await lead.digger.client.get("/my-leads")).text());
    expect(myLeads).toContain(waiting);
    expect(myLeads).toContain(reviewClientLabel("Maria"));

    // The client: one notice naming the digger by their handle, with the window's end.
    expect(await noticesTo(lead.client.id, reviewedYouText(handle, await endsText(lead)))).toHaveLength(1);
    // ...and the review's words in nothing the client can open.
    for (const path of ["/notifications", `/messages/${lead.threadId}`, `/my-gigs/${lead.gig.id}/diggers`, "/my-gigs", `/gig/${lead.gig.id}`, "/account/data"]) {
      const response = await lead.client.client.get(path);
      expect(response.status, path).toBe(200);
      expect(decodeHtml(await response.text()), path).not.toContain(REVIEW);
    }
    expect((await lead.client.client.get(reviewPath(lead.purchaseId))).status).toBe(403);
    expect(JSON.stringify(await mailTo(app, lead.client.email))).not.toContain(REVIEW);
  });

  it("may be edited until it is published, without telling the client again; after publication the edit is refused with the issue's words", async () => {
    const lead = await hiredLead();
    const handle = await handleOf(lead);
    expect((await answer(await write(lead.digger.client, lead.purchaseId))).status).toBe(200);
    const edited = `${REVIEW} Edited: she also left the gate open for me.`;
    expect(await answer(await write(lead.digger.client, lead.purchaseId, { rating: "5", body: edited, paidAsAgreed: "yes" }))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.updated });
    expect(await clientReviewsOf(lead)).toEqual([expect.objectContaining({ rating: 5, body: edited, asDescribed: null, easyToReach: null, paidAsAgreed: true, publishedAt: null })]);
    expect(await noticesTo(lead.client.id, reviewedYouText(handle, await endsText(lead)))).toHaveLength(1);

    // The client's own review arrives (blind, as the client's side writes it): both are shown at once.
    await db().transaction(async (tx) => {
      await tx.insert(reviews).values({ gigId: lead.gig.id, diggerId: lead.digger.diggerId, leadPurchaseId: lead.purchaseId, rating: 5, body: "Careful work and tidy afterwards.", publishedAt: null });
      await tx.update(reviewWindows).set({ publishedAt: sql`now()` }).where(and(eq(reviewWindows.gigId, lead.gig.id), eq(reviewWindows.diggerId, lead.digger.diggerId)));
      await tx.update(clientReviews).set({ publishedAt: sql`now()` }).where(and(eq(clientReviews.gigId, lead.gig.id), eq(clientReviews.diggerId, lead.digger.diggerId)));
    });
    const refused = await answer(await write(lead.digger.client, lead.purchaseId, { rating: "1", body: "Changed my mind about all of it, sorry." }));
    expect(refused).toEqual({ status: 409, error: "This review is published and can no longer be changed" });
    expect(await clientReviewsOf(lead)).toEqual([expect.objectContaining({ rating: 5, body: edited })]);
    expect(await formOf(lead.digger.client, lead.purchaseId)).toMatchObject({ state: "published", waitingText: null, review: { rating: 5, body: edited } });
    expect(decodeHtml(await (await lead.digger.client.get("/my-leads")).text())).toContain(CLIENT_REVIEW_TEXTS.reviewed);
  });

  it("written second (the client's blind review already there) publishes both at once and tells both parties", async () => {
    const lead = await hiredLead();
    await db().insert(reviews).values({ gigId: lead.gig.id, diggerId: lead.digger.diggerId, leadPurchaseId: lead.purchaseId, rating: 3, body: "Good work, a day late though.", publishedAt: null });
    expect(await answer(await write(lead.digger.client, lead.purchaseId))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.published });
    const window = await windowOf(lead);
    const [mine] = await clientReviewsOf(lead);
    const [theirs] = await db().select().from(reviews).where(and(eq(reviews.gigId, lead.gig.id), eq(reviews.diggerId, lead.digger.diggerId)));
    expect(window!.publishedAt).not.toBeNull();
    expect(mine!.publishedAt).toEqual(window!.publishedAt);
    expect(theirs!.publishedAt).toEqual(window!.publishedAt);
    for (const userId of [lead.client.id, lead.digger.id]) {
      expect(await noticesTo(userId, `Your reviews for "${lead.gig.title}" are now shown`)).toHaveLength(1);
    }
    expect(await formOf(lead.digger.client, lead.purchaseId)).toMatchObject({ state: "published", waitingText: null });
  });

  it("in a window published before two-way reviews, is shown at once", async () => {
    const lead = await hiredLead();
    await db().update(reviewWindows).set({ publishedAt: sql`now()` }).where(and(eq(reviewWindows.gigId, lead.gig.id), eq(reviewWindows.diggerId, lead.digger.diggerId)));
    expect(await answer(await write(lead.digger.client, lead.purchaseId))).toMatchObject({ status: 200, success: TRUST_MESSAGES.reviewPosted });
    expect((await clientReviewsOf(lead))[0]!.publishedAt).not.toBeNull();
  });

  it("is one per side: the database refuses a second row, and a second Submit Review edits the first", async () => {
    const lead = await hiredLead();
    expect((await answer(await write(lead.digger.client, lead.purchaseId))).status).toBe(200);
    const second = await db()
      .insert(clientReviews)
      .values({ gigId: lead.gig.id, diggerId: lead.digger.diggerId, leadPurchaseId: lead.purchaseId, clientId: lead.client.id, rating: 1, body: "A second review of the same hire." })
      .then(
        () => "inserted",
        (error: unknown) => (isUniqueViolation(error, "client_reviews_gig_digger_key") ? "refused by client_reviews_gig_digger_key" : String(error)),
      );
    expect(second).toBe("refused by client_reviews_gig_digger_key");
    expect(await answer(await write(lead.digger.client, lead.purchaseId, { rating: "2", body: REVIEW }))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.updated });
    expect(await clientReviewsOf(lead)).toEqual([expect.objectContaining({ rating: 2 })]);
  });

  it("sent twice at once, is written once: the window's lock orders them, the second edits the first, the client hears once", async () => {
    const lead = await hiredLead();
    const handle = await handleOf(lead);
    const answers = await Promise.all([write(lead.digger.client, lead.purchaseId), write(lead.digger.client, lead.purchaseId, { ...VALID, rating: "5" })].map(async (r) => answer(await r)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.success).sort()).toEqual([TWO_WAY_TEXTS.posted, TWO_WAY_TEXTS.updated].sort());
    expect(await clientReviewsOf(lead)).toHaveLength(1);
    expect(await noticesTo(lead.client.id, reviewedYouText(handle, await endsText(lead)))).toHaveLength(1);
  });

  it("is refused on a lead refunded in full after the hire, and the form says why", async () => {
    const lead = await hiredLead();
    await fullRefund(lead);
    expect(await answer(await write(lead.digger.client, lead.purchaseId))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.refunded });
    expect(await clientReviewsOf(lead)).toHaveLength(0);
    expect(await formOf(lead.digger.client, lead.purchaseId)).toMatchObject({ state: "closed", closedText: TWO_WAY_TEXTS.refunded, waitingText: null });
    // The card offers nothing on it.
    expect(decodeHtml(await (await lead.digger.client.get("/my-leads")).text())).not.toContain(reviewClientLabel("Maria"));
  });
});

describe("the entries", () => {
  it("the lead's card and the thread's menu offer Review {first name} to the digger while a window exists; the client never sees it", async () => {
    const lead = await boughtLead(app, { clientName: "Greta Garden" });
    const label = reviewClientLabel("Greta");
    const cardBefore = decodeHtml(await (await lead.digger.client.get("/my-leads")).text());
    expect(cardBefore).not.toContain(label);
    expect(decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text())).not.toContain(label);
    expect(await hire(lead)).toMatchObject({ status: 200 });
    expect(decodeHtml(await (await lead.digger.client.get("/my-leads")).text())).toContain(label);
    expect(decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text())).toContain(label);
    expect(decodeHtml(await (await lead.client.client.get(`/messages/${lead.threadId}`)).text())).not.toContain(label);
    expect(decodeHtml(await (await lead.client.client.get("/my-gigs")).text())).not.toContain(label);
  });
});

describe("who may read and write it", () => {
  it("only the lead's digger: another digger and the client get 403, a visitor is sent to sign in, a malformed or unknown id is 404; nothing is written", async () => {
    const lead = await hiredLead();
    const stranger = await diggerWithProfile(app);
    const otherClient = await signUpAs(app, "consumer", "Olga Other");
    const visitor = new SessionClient(app);
    const before = (await db().select({ n: count() }).from(clientReviews))[0]!.n;
    for (const who of [stranger.client, lead.client.client, otherClient.client]) {
      expect(await answer(await who.get(reviewPath(lead.purchaseId)))).toMatchObject({ status: 403, error: TWO_WAY_TEXTS.notYourLead });
      expect(await answer(await write(who, lead.purchaseId))).toMatchObject({ status: 403, error: TWO_WAY_TEXTS.notYourLead });
    }
    for (const response of [await visitor.get(reviewPath(lead.purchaseId)), await write(visitor, lead.purchaseId)]) {
      expect(response.status).toBe(302);
      expect(location(response)).toBe("/auth?type=digger&redirect=/my-leads");
    }
    for (const id of ["not-a-uuid", randomUUID(), "00000000-0000-0000-0000-000000000000"]) {
      expect(await answer(await lead.digger.client.get(reviewPath(id)))).toMatchObject({ status: 404, error: TWO_WAY_TEXTS.notFound });
      expect(await answer(await write(lead.digger.client, id))).toMatchObject({ status: 404, error: TWO_WAY_TEXTS.notFound });
    }
    expect((await db().select({ n: count() }).from(clientReviews))[0]!.n).toBe(before);
  });
});

describe("bad input", () => {
  it("refuses a rating that is not a plain 1 to 5, a text too short or too long and an answer that is not yes or no, with the field's message, storing nothing", async () => {
    const lead = await hiredLead();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...VALID, rating: "6" }, "rating", "Please choose a rating"],
      [{ ...VALID, rating: "1e0" }, "rating", "Please choose a rating"],
      [{ ...VALID, rating: "" }, "rating", "Please choose a rating"],
      [{ body: REVIEW }, "rating", "Please choose a rating"],
      [{ ...VALID, body: "Too short.          " }, "body", "Please write at least 20 characters"],
      [{ ...VALID, body: "x".repeat(2001) }, "body", TWO_WAY_TEXTS.bodyTooLong],
      [{ ...VALID, asDescribed: "maybe" }, "asDescribed", "Please answer yes or no"],
      [{ ...VALID, paidAsAgreed: "true" }, "paidAsAgreed", "Please answer yes or no"],
    ];
    for (const [fields, field, message] of cases) {
      const refused = await answer(await write(lead.digger.client, lead.purchaseId, fields));
      expect(refused, JSON.stringify(fields).slice(0, 80)).toMatchObject({ status: 400, error: message, fieldErrors: { [field]: message } });
    }
    expect(await clientReviewsOf(lead)).toHaveLength(0);
    expect(await answer(await write(lead.digger.client, lead.purchaseId, { ...VALID, body: "x".repeat(2000) }))).toMatchObject({ status: 200 });
  });
});
