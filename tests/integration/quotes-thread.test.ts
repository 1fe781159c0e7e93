/**
 * Quotes in the thread's one list and on the live stream (issue 33's follow-ups): messages and
 * quote cards come back in the order they were sent, each card where it was sent with its
 * current status, across 'Show earlier messages' (the page's cursor, migration 0045); a quote
 * sent, revised, withdrawn or decided is a `thread` event for the thread's two parties and a
 * `quotes` event for the gig's client only: another digger of the gig and a stranger hear nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIVE_PATH } from "../../core/live-events.ts";
import { THREAD_PAGE_SIZE, type ThreadView } from "../../core/messages.ts";
import { diggerProfiles, messages, quotes, users } from "../../server/db/schema.ts";
import { readInbox } from "../../server/conversations/inbox.ts";
import { threadQuoteState } from "../../server/conversations/thread-quotes.ts";
import { threadPage } from "../../server/conversations/thread.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { withdrawQuote } from "../../server/conversations/withdraw-quote.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { readerTime } from "../../server/reader-time.ts";
import { addDays } from "../../core/dates.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, type BoughtLead } from "../support/leads.ts";
import { declineQuoteForm, reviseQuoteForm, sendQuoteForm } from "../support/quotes.ts";
import { SseStream } from "../support/sse.ts";

/** Times as a reader in UTC reads them. */
const utc = readerTime("UTC", { defaultTimeZone: "UTC" });

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const FIXED = { type: "fixed", amount: "800", included: "Labour and materials" };
const say = (user: TestUser, lead: BoughtLead, body: string) => user.client.post(`/messages/${lead.threadId}`, { intent: "send", body, js: "1" });
/** A page's list as words: each message's text, each quote as `quote {price} {status}`. */
const listed = (view: ThreadView) =>
  view.items.map((item) => (item.kind === "message" ? item.message.body : item.kind === "quote" ? `quote ${item.quote.priceText} ${item.quote.status}` : `visit ${item.visit.status}`));
const cursorOf = (view: ThreadView) => view.earlierCursor;

describe("the thread's one list of messages and quotes", () => {
  it("gives a message, a quote and a message in the order they were sent, a revised quote's cards each where it was sent", async () => {
    const lead = await boughtLead(app);
    expect((await say(lead.digger, lead, "Hello, I can help")).status).toBe(200);
    const first = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    expect((await say(lead.client, lead, "Could you do it for less?")).status).toBe(200);
    await reviseQuoteForm(app, lead.digger.id, lead.threadId, first.quoteId, { ...FIXED, amount: "700" });
    expect((await say(lead.client, lead, "Thanks!")).status).toBe(200);
    const view = await threadPage(app.database.db, lead.client.id, lead.threadId, null, utc);
    expect(listed(view)).toEqual(["Hello, I can help", "quote $800.00 replaced", "Could you do it for less?", "quote $700.00 open", "Thanks!"]);
    expect(view.earlierCursor).toBeNull();
    // The page itself: the first card between the two messages around it.
    const html = decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text());
    const at = (text: string) => html.indexOf(text);
    expect(at("Hello, I can help")).toBeGreaterThan(0);
    expect(at("Hello, I can help")).toBeLessThan(at("$800.00"));
    expect(at("$800.00")).toBeLessThan(at("Could you do it for less?"));
    expect(at("Could you do it for less?")).toBeLessThan(at("$700.00"));
    expect(at("$700.00")).toBeLessThan(at("Thanks!"));
  });

  it("keeps that order across a page boundary: the newest 50 items, then 'Show earlier messages' from where the page ended", async () => {
    const lead = await boughtLead(app);
    await app.database.db.insert(messages).values({ threadId: lead.threadId, senderId: lead.client.id, body: "Before the quote" });
    await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    // 49 messages after the quote (one statement: one created_at, seq orders them): the boundary
    // falls between the first message and the quote.
    const after = Array.from({ length: THREAD_PAGE_SIZE - 1 }, (_, i) => `After ${String(i + 1).padStart(2, "0")}`);
    await app.database.db.insert(messages).values(after.map((body) => ({ threadId: lead.threadId, senderId: lead.digger.id, body })));
    const newest = await threadPage(app.database.db, lead.client.id, lead.threadId, null, utc);
    expect(listed(newest)).toEqual(["quote $800.00 open", ...after]);
    const earlier = await threadPage(app.database.db, lead.client.id, lead.threadId, cursorOf(newest), utc);
    expect(listed(earlier)).toEqual(["Before the quote"]);
    expect(earlier.earlierCursor).toBeNull();

    // One more message: now the quote is on the earlier page, after the message before it.
    await app.database.db.insert(messages).values({ threadId: lead.threadId, senderId: lead.client.id, body: "After 50" });
    const moved = await threadPage(app.database.db, lead.client.id, lead.threadId, null, utc);
    expect(listed(moved)).toEqual([...after, "After 50"]);
    expect(listed(await threadPage(app.database.db, lead.client.id, lead.threadId, cursorOf(moved), utc))).toEqual(["Before the quote", "quote $800.00 open"]);
    // Through the page: its 'Show earlier messages' link.
    const html = decodeHtml(await (await lead.client.client.get(`/messages/${lead.threadId}`)).text());
    const link = /href="[^"?]*(\?cursor=[^"]+)"/.exec(html)?.[1];
    expect(link).toBeDefined();
    const older = decodeHtml(await (await lead.client.client.get(`/messages/${lead.threadId}${link}`)).text());
    expect(older.indexOf("Before the quote")).toBeGreaterThan(0);
    expect(older.indexOf("Before the quote")).toBeLessThan(older.indexOf("$800.00"));
    expect(older).not.toContain("After 01");
  });
});

describe("a quote's Valid until (issue 47)", () => {
  it("ends at midnight after that day on the quoting digger's clock, and its earliest day is the digger's today", async () => {
    const lead = await boughtLead(app);
    const tokyo = readerTime("Asia/Tokyo", app.config);
    const validUntil = addDays(tokyo.today, 10);
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, { ...FIXED, validUntil }, "Asia/Tokyo");
    const [row] = await app.database.db.select({ expiresAt: quotes.expiresAt }).from(quotes).where(eq(quotes.id, sent.quoteId));
    // Midnight in Tokyo (UTC+9, no summer time) is 15:00 UTC the day before.
    expect(row!.expiresAt.toISOString()).toBe(`${validUntil}T15:00:00.000Z`);
    // A day before the digger's today is refused, in the spec's words.
    await withdrawQuote(app.services, lead.digger.id, lead.threadId, sent.quoteId);
    await expect(sendQuoteForm(app, lead.digger.id, lead.threadId, { ...FIXED, validUntil: addDays(tokyo.today, -1) }, "Asia/Tokyo")).rejects.toMatchObject({ code: "invalid_input" });
  });
});

describe("a quote past its Valid until", () => {
  it("stays the digger's one open quote in the thread: Revise and Withdraw, no Send a Quote; the client gets no Accept; a revision replaces it", async () => {
    const lead = await boughtLead(app);
    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await app.database.db.update(quotes).set({ validUntil: "2020-01-01", expiresAt: new Date(Date.now() - 1000) }).where(eq(quotes.id, sent.quoteId));
    const digger = decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text());
    expect(digger).toContain("Expired ");
    expect(digger).toMatch(/>Revise</);
    expect(digger).toMatch(/>Withdraw</);
    expect(digger).not.toMatch(/>Send a Quote</);
    const client = decodeHtml(await (await lead.client.client.get(`/messages/${lead.threadId}`)).text());
    expect(client).toContain("Expired ");
    expect(client).not.toMatch(/>Accept</);
    // A second quote would be refused (one open quote per digger and gig); a revision replaces it.
    await expect(sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED)).rejects.toMatchObject({ code: "conflict" });
    await reviseQuoteForm(app, lead.digger.id, lead.threadId, sent.quoteId, { ...FIXED, amount: "750" });
    const view = await threadPage(app.database.db, lead.digger.id, lead.threadId, null, utc);
    expect(listed(view)).toEqual(["quote $800.00 replaced", "quote $750.00 open"]);
  });
});

describe("quotes on the live stream", () => {
  const open: SseStream[] = [];
  afterAll(() => Promise.all(open.map((stream) => stream.cancel())));
  async function streamOf(user: TestUser): Promise<SseStream> {
    const response = await app.request(LIVE_PATH, { headers: { cookie: user.client.cookieHeader() } });
    expect(response.status).toBe(200);
    const stream = new SseStream(response);
    open.push(stream);
    await vi.waitFor(() => expect(stream.named("ready")).toHaveLength(1));
    return stream;
  }
  const data = (stream: SseStream, name: string) => stream.named(name).map((event) => JSON.parse(event.data) as Record<string, string>);

  it("tells the thread's parties of each change, and the gig's client alone of the gig's quotes; another digger and a stranger hear nothing", async () => {
    const lead = await boughtLead(app);
    const rival = await boughtLead(app, { client: lead.client, gig: lead.gig });
    // A stranger with a thread of their own (an account without one holds no stream at all).
    const stranger = (await boughtLead(app, { clientName: "Stella Stranger" })).client;
    const [client, digger, other, outsider] = await Promise.all([streamOf(lead.client), streamOf(lead.digger), streamOf(rival.digger), streamOf(stranger)]);

    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await vi.waitFor(() => expect(data(client, "quotes")).toEqual([{ gigId: lead.gig.id }]));
    expect(data(client, "thread")).toEqual([{ threadId: lead.threadId }]);
    await vi.waitFor(() => expect(data(digger, "thread")).toEqual([{ threadId: lead.threadId }]));
    expect(digger.named("quotes")).toEqual([]);

    // Revise, withdraw, a quote again, decline, and an accept that makes the rival's quote 'Not chosen'.
    const revised = await reviseQuoteForm(app, lead.digger.id, lead.threadId, sent.quoteId, { ...FIXED, amount: "750" });
    await withdrawQuote(app.services, lead.digger.id, lead.threadId, revised.quoteId);
    const again = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await declineQuoteForm(app, lead.client.id, lead.threadId, again.quoteId, { reason: "Too dear" });
    const last = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    const rivals = await sendQuoteForm(app, rival.digger.id, rival.threadId, { ...FIXED, amount: "900" });
    await acceptQuote(app.services, lead.client.id, lead.threadId, last.quoteId);
    await vi.waitFor(() => expect(client.named("quotes")).toHaveLength(8));
    expect(data(client, "quotes").every((event) => event.gigId === lead.gig.id)).toBe(true);
    await vi.waitFor(() => expect(data(digger, "thread").every((event) => event.threadId === lead.threadId) && digger.named("thread").length === 7).toBe(true));
    // The rival digger: their own quote and its 'Not chosen', never the other digger's quotes.
    await vi.waitFor(() => expect(data(other, "thread")).toEqual([{ threadId: rival.threadId }, { threadId: rival.threadId }]));
    expect(other.named("quotes")).toEqual([]);
    expect(rivals.quoteId).toBeDefined();
    // Messages and read marks on the thread are the thread's own events; the stranger's stream carries nothing.
    expect(outsider.named("thread")).toEqual([]);
    expect(outsider.named("quotes")).toEqual([]);
    expect(outsider.events.map((event) => event.event)).toEqual(["ready"]);
  });
});

describe("the inbox's last event and subtitle (issue 47)", () => {
  /** The thread's row as `user` reads the inbox: [subtitle, last event]. */
  const row = async (user: TestUser, lead: BoughtLead) => {
    const page = (await readInbox(app.database.db, user.id, null, utc)).page;
    const found = page.items.find((item) => item.id === lead.threadId)!;
    return [found.subtitle, found.lastEvent];
  };

  it("says each party the last message ('You: ' when mine) or the newest quote's news, under a subtitle that fits the reader", async () => {
    const client = await signUpAs(app, "consumer", "Ivy Inbox");
    const lead = await boughtLead(app, { client });
    const rival = await boughtLead(app, { client, gig: lead.gig });
    const [{ handle }] = (await app.database.db.select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.userId, lead.digger.id))) as [{ handle: string }];
    const title = lead.gig.title;
    expect(await row(lead.digger, lead)).toEqual([`Ivy · ${title}`, null]);
    await say(lead.digger, lead, "Hello Ivy\nI can start Monday");
    expect(await row(lead.digger, lead)).toEqual([`Ivy · ${title}`, "You: Hello Ivy"]);
    expect(await row(client, lead)).toEqual([`@${handle} · ${title}`, "Hello Ivy"]);

    const sent = await sendQuoteForm(app, lead.digger.id, lead.threadId, { ...FIXED, amount: "1450" });
    expect(await row(client, lead)).toEqual([`@${handle} · ${title}`, "Sent a quote: $1,450.00"]);
    expect(await row(lead.digger, lead)).toEqual([`Ivy · ${title}`, "Sent a quote: $1,450.00"]);
    const revised = await reviseQuoteForm(app, lead.digger.id, lead.threadId, sent.quoteId, { type: "estimate", low: "1100", high: "1600", included: "Labour" });
    expect((await row(client, lead))[1]).toBe("Revised the quote: $1,100.00 to $1,600.00");
    await say(lead.client, lead, "Thanks, let me think");
    expect((await row(client, lead))[1]).toBe("You: Thanks, let me think");
    expect((await row(lead.digger, lead))[1]).toBe("Thanks, let me think");
    await withdrawQuote(app.services, lead.digger.id, lead.threadId, revised.quoteId);
    expect((await row(client, lead))[1]).toBe("Quote withdrawn");
    const again = await sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED);
    await declineQuoteForm(app, client.id, lead.threadId, again.quoteId);
    expect((await row(lead.digger, lead))[1]).toBe("Quote declined");

    const rivalQuote = await sendQuoteForm(app, rival.digger.id, rival.threadId, FIXED);
    const last = await sendQuoteForm(app, lead.digger.id, lead.threadId, { ...FIXED, amount: "1450" });
    await acceptQuote(app.services, client.id, lead.threadId, last.quoteId);
    expect((await row(lead.digger, lead))[1]).toBe("Quote accepted");
    expect((await row(client, lead))[1]).toBe("Quote accepted");
    expect(rivalQuote.quoteId).toBeTruthy();
    expect((await row(rival.digger, rival))[1]).toBe("Not chosen");

    // The page shows them.
    const html = decodeHtml(await (await client.client.get("/messages")).text());
    expect(html).toContain(`@${handle} · ${title}`);
    expect(html).toContain("Quote accepted");
    // Times in the reader's zone, written by the server: a reader in Chicago reads CST (or CDT).
    await app.database.db.update(users).set({ timeZone: "America/Chicago" }).where(eq(users.id, lead.digger.id));
    const view = await threadPage(app.database.db, lead.digger.id, lead.threadId, null, readerTime("America/Chicago", { defaultTimeZone: "UTC" }));
    const firstMessage = view.items.find((item) => item.kind === "message");
    expect(firstMessage?.kind === "message" && firstMessage.message.createdText).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T$/);
    const page = decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text());
    expect(page).toMatch(/\d{1,2}:\d{2} [AP]M C[SD]T</);
  });
});

describe("a digger not chosen cannot quote (issue 47)", () => {
  it("offers Send a Quote until the client accepts another digger's quote; then neither the 'Not chosen' digger nor a digger who never quoted may, and the server refuses", async () => {
    const chosen = await boughtLead(app);
    const notChosen = await boughtLead(app, { client: chosen.client, gig: chosen.gig });
    const silent = await boughtLead(app, { client: chosen.client, gig: chosen.gig });
    const state = (lead: BoughtLead) => threadQuoteState(app.database.db, lead.threadId, lead.gig.id);
    const page = async (lead: BoughtLead) => decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text());
    expect(await state(notChosen)).toEqual({ hasOpen: false, accepted: false, canQuote: true });
    expect(await page(notChosen)).toContain(">More actions<");

    const mine = await sendQuoteForm(app, notChosen.digger.id, notChosen.threadId, FIXED);
    expect(await state(notChosen)).toEqual({ hasOpen: true, accepted: false, canQuote: false });
    const theirs = await sendQuoteForm(app, chosen.digger.id, chosen.threadId, FIXED);
    await acceptQuote(app.services, chosen.client.id, chosen.threadId, theirs.quoteId);
    expect((await app.database.db.select({ status: quotes.status }).from(quotes).where(eq(quotes.id, mine.quoteId)))[0]!.status).toBe("not_chosen");

    expect(await state(notChosen)).toEqual({ hasOpen: false, accepted: false, canQuote: false });
    expect(await state(silent)).toMatchObject({ canQuote: false });
    expect(await state(chosen)).toEqual({ hasOpen: false, accepted: true, canQuote: false });
    // The client's thread with the accepted quote offers the next step, as Compare Quotes does; the other threads do not.
    const clientPage = async (lead: BoughtLead) => decodeHtml(await (await lead.client.client.get(`/messages/${lead.threadId}`)).text());
    expect(await clientPage(chosen)).toContain("Keep it open for more diggers");
    expect(await clientPage(notChosen)).not.toContain("Keep it open for more diggers");
    expect(await page(chosen)).not.toContain("Keep it open for more diggers");
    for (const lead of [notChosen, silent]) {
      // The '+' sheet offers Send a Quote by this state (it stays for Propose a visit, issue 50).
      expect((await state(lead)).canQuote).toBe(false);
      await expect(sendQuoteForm(app, lead.digger.id, lead.threadId, FIXED)).rejects.toMatchObject({ code: "conflict" });
    }
    // Even were the accepted quote gone, a thread's 'Not chosen' ends its quoting.
    await app.database.db.update(quotes).set({ status: "withdrawn" }).where(eq(quotes.id, theirs.quoteId));
    expect(await state(notChosen)).toMatchObject({ canQuote: false });
    expect(await state(silent)).toMatchObject({ canQuote: true });
    await expect(sendQuoteForm(app, notChosen.digger.id, notChosen.threadId, FIXED)).rejects.toMatchObject({ code: "conflict" });
  });
});
