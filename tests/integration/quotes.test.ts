/**
 * Quotes (issue 33), the server slice, through the real app on a real database: the quote rules
 * (types, sums, limits, dates, one open quote, revise, withdraw), accept in one transaction (the
 * hire as Mark as Hired records it, the other quotes 'Not chosen', two accepts racing: exactly
 * one wins), the notices to the chosen and the other diggers (one e-mail each about the outcome),
 * decline, expiry, a refunded lead, and who may do what (by the thread's own address).
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayIn, startOfDayIn } from "../../core/dates.ts";
import { QUOTE_ANSWERS, QUOTE_MESSAGES, lineItemsMismatch, quoteNoLongerOpen } from "../../core/quotes.ts";
import { diggerProfiles, gigs, hires, leadPurchases, quoteLineItems, quotes, refunds, users } from "../../server/db/schema.ts";
import { exportUserData } from "../../server/privacy/export.ts";
import { purgeDeletedAccounts } from "../../server/privacy/purge.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { withdrawQuote } from "../../server/conversations/withdraw-quote.ts";
import { threadQuotes } from "../../server/conversations/thread-quotes.ts";
import { setHired } from "../../server/reviews/hires.ts";
import { signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, type BoughtLead, mailTo, type TestDigger } from "../support/leads.ts";
import { declineQuoteForm, reviseQuoteForm, sendQuoteForm } from "../support/quotes.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpOperator(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const today = () => dayIn(app.config.timeZone);

const FIXED = { type: "fixed", amount: "1,250.50", included: "Materials, labour and haul-away" };
const send = (lead: BoughtLead, fields: Record<string, string> = FIXED) => sendQuoteForm(app, lead.digger.id, lead.threadId, fields);
const quoteRow = async (id: string) => (await db().select().from(quotes).where(eq(quotes.id, id)))[0]!;
const handleOf = async (digger: TestDigger) => (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId)))[0]!.handle;
const subjectsTo = async (user: TestUser) => (await mailTo(app, user.email)).map((mail) => mail.subject);
const quotesOfGig = (gigId: string) => db().select().from(quotes).where(eq(quotes.gigId, gigId));

describe("sending a quote", () => {
  it("keeps a fixed price with its line items in cents, valid 14 days by default, until midnight in the server's time zone: 'Quote sent'", async () => {
    const lead = await boughtLead(app);
    const answer = await send(lead, { ...FIXED, "lineItems.0.description": "Cedar boards", "lineItems.0.amount": "1000", "lineItems.1.description": "Labour", "lineItems.1.amount": "250.50" });
    expect(answer.success).toBe(QUOTE_MESSAGES.sent);
    const row = await quoteRow(answer.quoteId);
    expect(row).toMatchObject({ type: "fixed", amountCents: 125_050, status: "open", gigId: lead.gig.id, diggerId: lead.digger.diggerId, validUntil: addDays(today(), 14) });
    expect(row.expiresAt.getTime()).toBe(startOfDayIn(addDays(today(), 15), app.config.timeZone).getTime());
    const items = await db().select().from(quoteLineItems).where(eq(quoteLineItems.quoteId, row.id));
    expect(items.sort((a, b) => a.position - b.position).map((item) => [item.description, item.amountCents])).toEqual([
      ["Cedar boards", 100_000],
      ["Labour", 25_050],
    ]);
    // Both parties see it as a card; nobody else.
    const cards = await threadQuotes(db(), lead.client.id, lead.threadId);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ priceText: "$1,250.50", open: true, included: FIXED.included });
    expect(await threadQuotes(db(), lead.digger.id, lead.threadId)).toHaveLength(1);
    await expect(threadQuotes(db(), operator.id, lead.threadId)).rejects.toMatchObject({ status: 404 });
    // Both parties' data exports carry it with the thread.
    for (const party of [lead.digger, lead.client]) {
      const exported = await exportUserData(db(), party.id);
      expect(exported.threads.find((thread) => thread.id === lead.threadId)?.quotes.map((quote) => quote.id)).toEqual([answer.quoteId]);
    }
  });

  it("takes an hourly rate with hours in halves and an estimate range; refuses what the form refuses, with its messages, writing nothing", async () => {
    const lead = await boughtLead(app);
    const hourly = await send(lead, { type: "hourly", rate: "80", hours: "12.5", included: "Labour only" });
    expect(await quoteRow(hourly.quoteId)).toMatchObject({ type: "hourly", rateCents: 8000, hours: "12.5", amountCents: null });
    await withdrawQuote(app.services, lead.digger.id, lead.threadId, hourly.quoteId);
    const estimate = await send(lead, { type: "estimate", low: "900", high: "1400", included: "Depends on the boards" });
    expect(await quoteRow(estimate.quoteId)).toMatchObject({ type: "estimate", lowCents: 90_000, highCents: 140_000 });
    await withdrawQuote(app.services, lead.digger.id, lead.threadId, estimate.quoteId);

    const before = (await quotesOfGig(lead.gig.id)).length;
    const refusals: Array<[Record<string, string>, string]> = [
      [{ ...FIXED, included: "  " }, QUOTE_MESSAGES.included],
      [{ ...FIXED, included: "x".repeat(2001) }, QUOTE_MESSAGES.includedTooLong],
      [{ ...FIXED, amount: "0.99" }, QUOTE_MESSAGES.amountRange],
      [{ ...FIXED, amount: "1000000.01" }, QUOTE_MESSAGES.amountRange],
      [{ ...FIXED, amount: "12,5x" }, QUOTE_MESSAGES.amount],
      [{ type: "hourly", rate: "80", hours: "12.25", included: "x" }, QUOTE_MESSAGES.hours],
      [{ type: "hourly", rate: "80", hours: "1000.5", included: "x" }, QUOTE_MESSAGES.hours],
      [{ type: "estimate", low: "1400", high: "900", included: "x" }, QUOTE_MESSAGES.rangeOrder],
      [{ type: "barter", included: "x" }, QUOTE_MESSAGES.chooseType],
      [{ ...FIXED, validUntil: addDays(today(), -1) }, QUOTE_MESSAGES.validUntilPast],
      [{ ...FIXED, "lineItems.0.description": "Boards", "lineItems.0.amount": "1000" }, lineItemsMismatch(100_000, 125_050)],
      [{ type: "hourly", rate: "80", hours: "2", included: "x", "lineItems.0.description": "Boards", "lineItems.0.amount": "160" }, QUOTE_MESSAGES.itemsOnlyFixed],
      [
        { type: "fixed", amount: "21", included: "x", ...Object.fromEntries(Array.from({ length: 21 }, (_, i) => [[`lineItems.${i}.description`, `Item ${i}`], [`lineItems.${i}.amount`, "1"]]).flat()) },
        QUOTE_MESSAGES.tooManyItems,
      ],
    ];
    for (const [fields, message] of refusals) {
      const refused = await send(lead, fields).catch((error: unknown) => error);
      expect(refused, message).toMatchObject({ status: 400 });
      expect(JSON.stringify(refused) + String((refused as Error).message) + JSON.stringify((refused as { fieldErrors?: unknown }).fieldErrors)).toContain(message);
    }
    expect(await quotesOfGig(lead.gig.id)).toHaveLength(before);
    // Valid until today is fine: it ends tonight.
    expect((await send(lead, { ...FIXED, validUntil: today() })).success).toBe(QUOTE_MESSAGES.sent);
  });

  it("keeps one open quote per digger and gig, also under two sends racing and in the database itself", async () => {
    const lead = await boughtLead(app);
    const outcomes = await Promise.allSettled([send(lead), send(lead)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { status: 409, message: QUOTE_ANSWERS.alreadyOpen } });
    const [open] = await quotesOfGig(lead.gig.id);
    await expect(db().insert(quotes).values({ ...open!, id: undefined })).rejects.toThrow();
    expect(await quotesOfGig(lead.gig.id)).toHaveLength(1);
  });

  it("revises (a new version; the old one replaced) and withdraws until the client decides", async () => {
    const lead = await boughtLead(app);
    const first = await send(lead);
    const revised = await reviseQuoteForm(app, lead.digger.id, lead.threadId, first.quoteId, { ...FIXED, amount: "1100" });
    expect(revised.success).toBe(QUOTE_MESSAGES.sent);
    expect(await quoteRow(first.quoteId)).toMatchObject({ status: "replaced" });
    expect(await quoteRow(revised.quoteId)).toMatchObject({ status: "open", replacesId: first.quoteId, amountCents: 110_000 });
    // The replaced one cannot be revised again, nor withdrawn.
    await expect(reviseQuoteForm(app, lead.digger.id, lead.threadId, first.quoteId, FIXED)).rejects.toMatchObject({ status: 409, message: QUOTE_ANSWERS.notOpen });
    expect(await withdrawQuote(app.services, lead.digger.id, lead.threadId, revised.quoteId)).toEqual({ success: QUOTE_ANSWERS.withdrawn });
    expect(await quoteRow(revised.quoteId)).toMatchObject({ status: "withdrawn" });
    const handle = await handleOf(lead.digger);
    await expect(acceptQuote(app.services, lead.client.id, lead.threadId, revised.quoteId)).rejects.toMatchObject({ status: 409, message: quoteNoLongerOpen(handle) });
    // Withdrawn, a new one may be sent; a decided one cannot be withdrawn.
    const again = await send(lead);
    await acceptQuote(app.services, lead.client.id, lead.threadId, again.quoteId);
    await expect(withdrawQuote(app.services, lead.digger.id, lead.threadId, again.quoteId)).rejects.toMatchObject({ status: 409 });
  });
});

describe("accepting a quote", () => {
  it("in one transaction: accepted, hired as Mark as Hired hires, the other open quotes not chosen; one e-mail about the outcome to each digger", async () => {
    const winner = await boughtLead(app);
    const { client, gig } = winner;
    const loser = await boughtLead(app, { client, gig });
    const silent = await boughtLead(app, { client, gig });
    const hiredToo = await boughtLead(app, { client, gig });
    await db().insert(hires).values({ gigId: gig.id, diggerId: hiredToo.digger.diggerId });
    const won = await send(winner, { type: "hourly", rate: "80", hours: "10", included: "Labour" });
    const lost = await send(loser, { ...FIXED, amount: "999" });

    expect(await acceptQuote(app.services, client.id, winner.threadId, won.quoteId)).toEqual({ success: QUOTE_MESSAGES.accepted });
    expect(await quoteRow(won.quoteId)).toMatchObject({ status: "accepted" });
    expect((await quoteRow(won.quoteId)).decidedAt).not.toBeNull();
    expect(await quoteRow(lost.quoteId)).toMatchObject({ status: "not_chosen" });
    expect(await db().select().from(hires).where(and(eq(hires.gigId, gig.id), eq(hires.diggerId, winner.digger.diggerId)))).toHaveLength(1);

    const accepted = `Clara accepted your quote for "${gig.title}"`;
    const notChosen = `The client chose another digger for "${gig.title}"`;
    expect(await subjectsTo(winner.digger)).toEqual([accepted]);
    expect(await subjectsTo(loser.digger)).toEqual([notChosen]);
    expect(await subjectsTo(silent.digger)).toEqual([notChosen]);
    expect(await subjectsTo(hiredToo.digger)).toEqual([]);
    // Without the winner's name or price.
    const [loserMail] = await mailTo(app, loser.digger.email);
    const winnerHandle = await handleOf(winner.digger);
    for (const body of [loserMail!.textBody, loserMail!.htmlBody ?? ""]) {
      expect(body).not.toContain(winnerHandle);
      expect(body).not.toContain("$80.00");
    }
    expect((await mailTo(app, winner.digger.email))[0]!.textBody).toContain("$80.00/hour × 10 hours");

    // Closing the gig as filled tells nobody already told of the outcome; a second accept is refused.
    expect((await client.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "closed", filled: "yes" })).status).toBe(200);
    expect((await db().select().from(gigs).where(eq(gigs.id, gig.id)))[0]!.filledAt).toBeInstanceOf(Date);
    expect(await subjectsTo(loser.digger)).toEqual([notChosen]);
    expect(await subjectsTo(silent.digger)).toEqual([notChosen]);
    expect(await subjectsTo(winner.digger)).toEqual([accepted]);
    // The digger who was marked hired, told nothing by the accept, hears that the gig is filled.
    expect(await subjectsTo(hiredToo.digger)).toEqual([`The gig "${gig.title}" has been filled`]);
    // The handle is read before the accept starts: an await inside the matcher's arguments would leave the
    // rejected promise without a handler meanwhile (an unhandled rejection that fails the run).
    const loserHandle = await handleOf(loser.digger);
    await expect(acceptQuote(app.services, client.id, loser.threadId, lost.quoteId)).rejects.toMatchObject({ status: 409, message: quoteNoLongerOpen(loserHandle) });
    // No one may quote on a gig with an accepted quote.
    await expect(send(silent)).rejects.toMatchObject({ status: 409, message: QUOTE_ANSWERS.alreadyAccepted });
  });

  it("keeps a digger already marked hired hired once; removing the hire sets the quote back to open", async () => {
    const lead = await boughtLead(app);
    await setHired(app.services, lead.client.id, lead.gig.id, lead.digger.diggerId, true);
    const quote = await send(lead);
    await acceptQuote(app.services, lead.client.id, lead.threadId, quote.quoteId);
    expect(await db().select().from(hires).where(eq(hires.gigId, lead.gig.id))).toHaveLength(1);
    await setHired(app.services, lead.client.id, lead.gig.id, lead.digger.diggerId, false);
    expect(await quoteRow(quote.quoteId)).toMatchObject({ status: "open", decidedAt: null });
    // Open again, it may be accepted again.
    await acceptQuote(app.services, lead.client.id, lead.threadId, quote.quoteId);
    expect(await quoteRow(quote.quoteId)).toMatchObject({ status: "accepted" });
  });

  it("lets exactly one of two accepts racing on the gig win", async () => {
    const first = await boughtLead(app);
    const second = await boughtLead(app, { client: first.client, gig: first.gig });
    const a = await send(first);
    const b = await send(second);
    const outcomes = await Promise.allSettled([
      acceptQuote(app.services, first.client.id, first.threadId, a.quoteId),
      acceptQuote(app.services, first.client.id, second.threadId, b.quoteId),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { status: 409 } });
    const statuses = (await quotesOfGig(first.gig.id)).map((q) => q.status).sort();
    expect(statuses).toEqual(["accepted", "not_chosen"]);
    expect(await db().select().from(hires).where(eq(hires.gigId, first.gig.id))).toHaveLength(1);
  });

  it("refuses an expired quote with 'This quote is no longer open. Ask {handle} for a new one.', changing nothing", async () => {
    const lead = await boughtLead(app);
    const quote = await send(lead);
    await db().update(quotes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(quotes.id, quote.quoteId));
    const handle = await handleOf(lead.digger);
    await expect(acceptQuote(app.services, lead.client.id, lead.threadId, quote.quoteId)).rejects.toMatchObject({ status: 409, message: quoteNoLongerOpen(handle) });
    expect(await quoteRow(quote.quoteId)).toMatchObject({ status: "open" });
    expect(await db().select().from(hires).where(eq(hires.gigId, lead.gig.id))).toHaveLength(0);
    expect((await threadQuotes(db(), lead.client.id, lead.threadId))[0]).toMatchObject({ open: false });
  });

  it("refuses a lead refunded in full: no quote, no accept", async () => {
    const lead = await boughtLead(app);
    const quote = await send(lead);
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId));
    await db().insert(refunds).values({ leadPurchaseId: purchase!.id, reason: "lead_unavailable", amountCents: purchase!.amountPaidCents, status: "succeeded", completedAt: new Date() });
    await expect(acceptQuote(app.services, lead.client.id, lead.threadId, quote.quoteId)).rejects.toMatchObject({ status: 409, message: QUOTE_ANSWERS.refunded });
    await withdrawQuote(app.services, lead.digger.id, lead.threadId, quote.quoteId);
    await expect(send(lead)).rejects.toMatchObject({ status: 409, message: QUOTE_ANSWERS.refunded });
    expect(await quoteRow(quote.quoteId)).toMatchObject({ status: "withdrawn" });
  });
});

describe("declining a quote", () => {
  it("tells the digger, with the reason as text, and lets them send a new quote", async () => {
    const lead = await boughtLead(app);
    const quote = await send(lead);
    const reason = "<b>Too dear</b> for us this year";
    expect(await declineQuoteForm(app, lead.client.id, lead.threadId, quote.quoteId, { reason })).toEqual({ success: QUOTE_ANSWERS.declined });
    expect(await quoteRow(quote.quoteId)).toMatchObject({ status: "declined", declineReason: reason });
    const [mail] = await mailTo(app, lead.digger.email);
    expect(mail!.subject).toBe(`Clara declined your quote for "${lead.gig.title}"`);
    expect(mail!.textBody).toContain(reason);
    expect(mail!.htmlBody).not.toContain("<b>Too dear</b>");
    expect((await send(lead)).success).toBe(QUOTE_MESSAGES.sent);
    await expect(declineQuoteForm(app, lead.client.id, lead.threadId, quote.quoteId, {})).rejects.toMatchObject({ status: 409 });
    await expect(declineQuoteForm(app, lead.client.id, lead.threadId, quote.quoteId, { reason: "x".repeat(1001) })).rejects.toMatchObject({ status: 400 });
  });
});

describe("the purge of a deleted account", () => {
  it("keeps a quote's prices for the other party but not the purged account's words: what is included, line items, a decline reason", async () => {
    const lead = await boughtLead(app);
    const items = { "lineItems.0.description": "Cedar boards", "lineItems.0.amount": "1000", "lineItems.1.description": "Labour", "lineItems.1.amount": "250.50" };
    const declined = await send(lead, { ...FIXED, ...items });
    await declineQuoteForm(app, lead.client.id, lead.threadId, declined.quoteId, { reason: "Our neighbour does it cheaper" });
    const open = await send(lead, { ...FIXED, ...items });
    const purge = async (user: { id: string }) => {
      await db().update(users).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(users.id, user.id));
      await purgeDeletedAccounts({ ...app.services, config: { accountPurgeDelayHours: 0 } });
    };

    await purge(lead.client);
    expect(await quoteRow(declined.quoteId)).toMatchObject({ status: "declined", declineReason: null, included: FIXED.included });

    await purge(lead.digger);
    for (const id of [declined.quoteId, open.quoteId]) {
      expect(await quoteRow(id)).toMatchObject({ amountCents: 125_050, included: QUOTE_MESSAGES.deleted });
      const kept = await db().select().from(quoteLineItems).where(eq(quoteLineItems.quoteId, id));
      expect(kept.map((item) => [item.description, item.amountCents]).sort()).toEqual([
        [QUOTE_MESSAGES.deleted, 100_000],
        [QUOTE_MESSAGES.deleted, 25_050],
      ]);
    }
    const remaining = JSON.stringify(await db().select().from(quotes).where(eq(quotes.threadId, lead.threadId)));
    for (const words of [FIXED.included, "Cedar boards", "Our neighbour does it cheaper"]) expect(remaining).not.toContain(words);
  });
});

describe("who may quote and decide", () => {
  it("lets only the thread's digger quote and only the gig's client decide; everyone else gets the 404 page; a visitor signs in", async () => {
    const lead = await boughtLead(app);
    const rival = await boughtLead(app, { client: lead.client, gig: lead.gig });
    const stranger = await signUpAs(app, "consumer", "Sam Stranger");
    const path = `/messages/${lead.threadId}`;
    const fields = { intent: "send-quote", ...FIXED };

    expect((await lead.client.client.post(path, fields)).status).toBe(403);
    for (const outsider of [rival.digger, stranger, operator]) expect((await outsider.client.post(path, fields)).status).toBe(404);
    expect(location(await new SessionClient(app).post(path, fields))).toMatch(/^\/auth\?redirect=/);
    expect(await quotesOfGig(lead.gig.id)).toHaveLength(0);

    expect((await lead.digger.client.post(path, fields)).status).toBe(200);
    const [quote] = await quotesOfGig(lead.gig.id);
    for (const intent of ["accept-quote", "decline-quote"]) {
      expect((await lead.digger.client.post(path, { intent, quoteId: quote!.id })).status).toBe(403);
      for (const outsider of [rival.digger, stranger, operator]) expect((await outsider.client.post(path, { intent, quoteId: quote!.id })).status).toBe(404);
      // Another thread's quote through one's own thread: not there.
      expect((await rival.client.client.post(`/messages/${rival.threadId}`, { intent, quoteId: quote!.id })).status).toBe(404);
    }
    for (const intent of ["withdraw-quote", "revise-quote"]) {
      expect((await lead.client.client.post(path, { intent, quoteId: quote!.id, ...FIXED })).status).toBe(403);
      expect((await rival.digger.client.post(`/messages/${rival.threadId}`, { intent, quoteId: quote!.id, ...FIXED })).status).toBe(404);
    }
    expect((await lead.client.client.post(path, { intent: "accept-quote", quoteId: "not-a-uuid" })).status).toBe(404);
    expect(await quoteRow(quote!.id)).toMatchObject({ status: "open" });
    expect((await lead.client.client.post(path, { intent: "accept-quote", quoteId: quote!.id })).status).toBe(200);
    expect(await quoteRow(quote!.id)).toMatchObject({ status: "accepted" });
  });
});
