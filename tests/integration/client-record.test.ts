/**
 * The client's record (issue 48): kept by the database's triggers (migration 0052) in the
 * transactions that write messages, quotes and hires, and read as lines on the gig page and
 * as the first line on Browse Gigs' cards. Delays are made by moving the digger's first answer
 * back in the database, as the issue-deadline tests move their times.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEW_CLIENT, RECORD_TITLE } from "../../core/reply-guarantee.ts";
import type { TestUser } from "../support/accounts.ts";
import { acceptQuote } from "../../server/conversations/accept-quote.ts";
import { sendMessage } from "../../server/conversations/send-message.ts";
import { clientRecords, clientReplyMonths, hires, threads, visitRecords } from "../../server/db/schema.ts";
import { queryRows } from "../../server/db/client.ts";
import { browseGigsQuery, browseShape, browseValues } from "../../server/gigs/browse.ts";
import { queryWithValues } from "../../server/db/prepared.ts";
import { clientRecordFigures } from "../../server/gigs/client-record.ts";
import { setHired } from "../../server/reviews/hires.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, type BoughtLead } from "../support/leads.ts";
import { sendQuoteForm } from "../support/quotes.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  // The page cache on, as in production: signed-out gig pages are served from it.
  app = await createTestApp({ PAGE_CACHE_SECONDS: "60" });
}, 60_000);
afterAll(() => app.close());

const db = () => app.database.db;
const say = (userId: string, threadId: string, body: string) => sendMessage(app.services, userId, threadId, { body });
/** The digger's first answer in `threadId` moved `minutes` back: the client's next message replies that much later. */
const answeredAgo = (threadId: string, minutes: number) =>
  db().update(threads).set({ diggerFirstAt: sql`now() - make_interval(mins => ${minutes})` }).where(eq(threads.id, threadId));
const months = async (clientId: string) => db().select().from(clientReplyMonths).where(eq(clientReplyMonths.clientId, clientId));
const allTime = async (clientId: string) => (await db().select().from(clientRecords).where(eq(clientRecords.clientId, clientId)))[0];
const figures = async (clientId: string) => (await clientRecordFigures(db(), [clientId])).get(clientId);

describe("the triggers keep the client's record", () => {
  it("a digger's messages count one lead; the client's first reply counts once, in its delay's band", async () => {
    const client = await signUpAs(app, "consumer", "Rita Replier");
    expect(await figures(client.id)).toMatchObject({ leads: 0, leadsAllTime: 0, gigsBought: 0 });
    const leads: BoughtLead[] = [];
    for (let i = 0; i < 4; i++) leads.push(await boughtLead(app, { client }));
    // Bought: four gigs bought, no lead written to yet.
    expect(await allTime(client.id)).toMatchObject({ leads: 0, gigsBought: 4, gigsHired: 0 });

    for (const lead of leads) {
      await say(lead.digger.id, lead.threadId, "Hello, I can do this next week.");
      await say(lead.digger.id, lead.threadId, "And I have done three like it this year.");
    }
    expect(await months(client.id)).toEqual([expect.objectContaining({ leads: 4, replied: 0, withinHour: 0, withinFewHours: 0, withinDay: 0 })]);
    expect(await allTime(client.id)).toMatchObject({ leads: 4 });

    // Replies 30 minutes, 3 hours, 20 hours and 3 days after the digger's first message.
    const delays = [30, 3 * 60, 20 * 60, 3 * 24 * 60];
    for (const [i, lead] of leads.entries()) {
      await answeredAgo(lead.threadId, delays[i]!);
      await say(client.id, lead.threadId, "Thanks, when can you come by?");
      await say(client.id, lead.threadId, "Mornings are best.");
    }
    expect(await months(client.id)).toEqual([expect.objectContaining({ leads: 4, replied: 4, withinHour: 1, withinFewHours: 1, withinDay: 1 })]);
    expect(await figures(client.id)).toEqual({ leads: 4, replied: 4, withinHour: 1, withinFewHours: 1, withinDay: 1, leadsAllTime: 4, gigsBought: 4, gigsHired: 0, visitsKept: 0, visitsCounted: 0, reviewCount: 0, reviewAverage: 0, describedYes: 0, describedNo: 0, reachableYes: 0, reachableNo: 0, paidYes: 0, paidNo: 0 });
  });

  it("a client who wrote first counts as replied within the hour when the digger writes; a quote is a lead once", async () => {
    const client = await signUpAs(app, "consumer", "Frida First");
    const first = await boughtLead(app, { client });
    await say(client.id, first.threadId, "Hi, are you free on Saturday?");
    expect(await months(client.id)).toEqual([]);
    await say(first.digger.id, first.threadId, "Yes, Saturday works.");
    expect(await months(client.id)).toEqual([expect.objectContaining({ leads: 1, replied: 1, withinHour: 1 })]);

    const quoted = await boughtLead(app, { client });
    await sendQuoteForm(app, quoted.digger.id, quoted.threadId, { type: "fixed", amount: "800", included: "Labour and materials" });
    await say(quoted.digger.id, quoted.threadId, "The quote is above.");
    expect(await months(client.id)).toEqual([expect.objectContaining({ leads: 2, replied: 1, withinHour: 1 })]);
    expect(await allTime(client.id)).toMatchObject({ leads: 2, gigsBought: 2 });
  });

  it("gigs bought and hired follow the purchases and the hires: accepting a quote, Mark as Hired and its undo", async () => {
    const client = await signUpAs(app, "consumer", "Hana Hirer");
    const quoted = await boughtLead(app, { client });
    const sent = await sendQuoteForm(app, quoted.digger.id, quoted.threadId, { type: "fixed", amount: "800", included: "Labour and materials" });
    await acceptQuote(app.services, client.id, quoted.threadId, sent.quoteId);
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 1, gigsHired: 1 });

    const marked = await boughtLead(app, { client });
    // A second buyer of the same gig: still one gig bought.
    await boughtLead(app, { client, gig: marked.gig });
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 2, gigsHired: 1 });
    await setHired(app.services, client.id, marked.gig.id, marked.digger.diggerId, true);
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 2, gigsHired: 2 });
    await setHired(app.services, client.id, marked.gig.id, marked.digger.diggerId, false);
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 2, gigsHired: 1 });
  });

  it("counts a gig inserted already bought (the demo's past work, a bulk load), so a later hire never outnumbers the gigs bought (migration 0053)", async () => {
    const client = await signUpAs(app, "consumer", "Paula Past");
    const digger = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id, { status: "closed", purchaseCount: 1 });
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 1, gigsHired: 0 });
    await db().insert(hires).values({ gigId: gig.id, diggerId: digger.diggerId });
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 1, gigsHired: 1 });
    // A gig posted as the app posts it (nobody bought it yet) adds nothing.
    await insertGig(app, client.id);
    expect(await allTime(client.id)).toMatchObject({ gigsBought: 1, gigsHired: 1 });
  });

  it("reads many clients in one query, months older than 12 left out", async () => {
    const [a, b] = [await signUpAs(app, "consumer"), await signUpAs(app, "consumer")];
    await db().insert(clientReplyMonths).values([
      { clientId: a.id, month: sql`date_trunc('month', now() at time zone 'UTC')::date`, leads: 2, replied: 1, withinHour: 1 },
      { clientId: a.id, month: sql`(date_trunc('month', now() at time zone 'UTC') - interval '11 months')::date`, leads: 1, replied: 1, withinDay: 1 },
      { clientId: a.id, month: sql`(date_trunc('month', now() at time zone 'UTC') - interval '12 months')::date`, leads: 5, replied: 5, withinHour: 5 },
    ]);
    await db().insert(clientRecords).values({ clientId: a.id, leads: 8, gigsBought: 6, gigsHired: 2 });
    // Their visits as a client (issue 50); a figure as a digger is not the client's.
    await db().insert(visitRecords).values([
      { userId: a.id, role: "client", kept: 2, counted: 3 },
      { userId: a.id, role: "digger", kept: 7, counted: 9 },
    ]);
    const read = await clientRecordFigures(db(), [a.id, b.id, a.id]);
    expect(read.get(a.id)).toEqual({ leads: 3, replied: 2, withinHour: 1, withinFewHours: 0, withinDay: 1, leadsAllTime: 8, gigsBought: 6, gigsHired: 2, visitsKept: 2, visitsCounted: 3, reviewCount: 0, reviewAverage: 0, describedYes: 0, describedNo: 0, reachableYes: 0, reachableNo: 0, paidYes: 0, paidNo: 0 });
    expect(read.get(b.id)).toEqual({ leads: 0, replied: 0, withinHour: 0, withinFewHours: 0, withinDay: 0, leadsAllTime: 0, gigsBought: 0, gigsHired: 0, visitsKept: 0, visitsCounted: 0, reviewCount: 0, reviewAverage: 0, describedYes: 0, describedNo: 0, reachableYes: 0, reachableNo: 0, paidYes: 0, paidNo: 0 });
  });
});

describe("the record on the gig page and Browse Gigs", () => {
  /** A client with 3 leads (2 replied within an hour, 1 not) on 3 gigs, one hired. */
  async function knownClient(): Promise<TestUser> {
    const client = await signUpAs(app, "consumer", "Kim Known");
    for (let i = 0; i < 3; i++) {
      const lead = await boughtLead(app, { client });
      await say(lead.digger.id, lead.threadId, "Hello there.");
      if (i < 2) await say(client.id, lead.threadId, "Hi!");
      if (i === 0) await setHired(app.services, client.id, lead.gig.id, lead.digger.diggerId, true);
    }
    return client;
  }
  const LINES = ["Replied to 2 of 3 diggers", "Usually replies within an hour", "Hired on 1 of 3 gigs"];

  it("shows 'About this client' with the lines to a digger, signed out and to the client; 'New client' for a new one", async () => {
    const client = await knownClient();
    const gig = await insertGig(app, client.id, { title: "Paint the fence, known client" });
    const digger = await diggerWithProfile(app);
    for (const viewer of [digger.client, new SessionClient(app), client.client]) {
      const html = decodeHtml(await (await viewer.get(`/gig/${gig.id}`)).text());
      expect(html).toContain(RECORD_TITLE);
      for (const line of LINES) expect(html).toContain(line);
      expect(html).not.toContain(NEW_CLIENT);
    }
    const data = decodeHtml(await (await digger.client.get(`/gig/${gig.id}.data`)).text());
    for (const line of LINES) expect(data).toContain(line);

    const newcomer = await signUpAs(app, "consumer", "Nell Newcomer");
    const fresh = await insertGig(app, newcomer.id, { title: "Paint the fence, new client" });
    const html = decodeHtml(await (await digger.client.get(`/gig/${fresh.id}`)).text());
    expect(html).toContain(RECORD_TITLE);
    expect(html).toContain(NEW_CLIENT);
    expect(html).not.toContain("Replied to");
  });

  it("the signed-out page cache serves the record, and forgets it at the client's reply", async () => {
    const client = await signUpAs(app, "consumer", "Cora Cached");
    const leads: BoughtLead[] = [];
    for (let i = 0; i < 3; i++) {
      leads.push(await boughtLead(app, { client }));
      await say(leads[i]!.digger.id, leads[i]!.threadId, "Hello there.");
    }
    const gig = await insertGig(app, client.id, { title: "Cached record gig" });
    const visit = () => new SessionClient(app).get(`/gig/${gig.id}`);
    expect((await visit()).headers.get("X-Page-Cache")).toBe("miss");
    const hit = await visit();
    expect(hit.headers.get("X-Page-Cache")).toBe("hit");
    expect(decodeHtml(await hit.text())).toContain("Replied to 0 of 3 diggers");
    // The reply is a write through the site: it empties the cache.
    const sent = await client.client.post(`/messages/${leads[0]!.threadId}`, { intent: "send", body: "Hi, thanks for writing!" });
    expect(sent.status).toBeLessThan(400);
    const after = await visit();
    expect(after.headers.get("X-Page-Cache")).toBe("miss");
    expect(decodeHtml(await after.text())).toContain("Replied to 1 of 3 diggers");
  });

  it("puts the record's first line on each Browse Gigs card, in the list's one query", async () => {
    const client = await knownClient();
    const known = await insertGig(app, client.id, { title: "Browse card known client zq" });
    const fresh = await insertGig(app, (await signUpAs(app, "consumer")).id, { title: "Browse card new client zq" });
    const digger = await diggerWithProfile(app);
    const html = decodeHtml(await (await digger.client.get(`/browse-gigs?q=${encodeURIComponent("Browse card")}`)).text());
    const card = (title: string) => html.slice(html.indexOf(title), html.indexOf(title) + 1500);
    expect(card(known.title)).toContain(LINES[0]);
    expect(card(fresh.title)).toContain(NEW_CLIENT);

    // The record is read for the page's rows only, by the two tables' primary keys.
    const plan = await db().transaction(async (tx) => {
      await queryRows(tx, sql`set local enable_seqscan = off`);
      const filters = { search: "", location: "", categoryIds: [], budget: null, cursor: null };
      const query = browseGigsQuery(db(), browseShape(filters));
      return (await queryWithValues<{ "QUERY PLAN": string }>(tx, sql`explain ${query}`, browseValues(filters))).map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toMatch(/Index Scan using client_records_pkey on client_records/);
    // An index scan or a bitmap of the same primary key, by the planner's estimate of the rows.
    expect(plan).toMatch(/(Index|Index Only) Scan using client_reply_months_pkey|Bitmap Index Scan on client_reply_months_pkey/);
    expect(plan).not.toMatch(/Seq Scan on (gigs|client_records|client_reply_months)/);
  });
});
