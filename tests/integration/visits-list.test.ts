/**
 * Visits outside the thread (issue 50): /visits (upcoming soonest first, then past latest first,
 * 20 a page with one cursor across the two parts, one's own visits only, times in the reader's
 * zone), 'Visit booked: {day, window}' on the lead card of /my-leads and the gig's card of
 * /my-gigs, 'Kept {k} of {n} visits' on the digger's profile, their Browse Talent card and the
 * client's record on a gig page (from 3 counted visits; a contradiction counts in neither figure,
 * a late cancellation is missed for the canceller only), and the system's cancellation of the
 * upcoming visits of a suspended account and of a blocked pair. Visits are written straight to
 * the database as a booking leaves them (tests/support/booked-visits.ts).
 */
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEPT_VISITS_TERM } from "../../core/kept-visits.ts";
import { RECORD_TITLE } from "../../core/reply-guarantee.ts";
import { cancelledLine, VISIT_TEXTS, visitBookedLine, visitBookedWithLine, visitWithLine, type VisitListItem } from "../../core/visits.ts";
import { visitListPage } from "../../server/conversations/visits/visit-list.ts";
import { diggerProfiles, notifications, threads, visitRecords, visits } from "../../server/db/schema.ts";
import { encodeCursor, type Page } from "../../server/pagination.ts";
import { readerTime } from "../../server/reader-time.ts";
import { changeUser, signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { hoursFromNow, insertVisit, type TestVisit } from "../support/booked-visits.ts";
import { plan, recordingDb, type Statement } from "../support/query-plans.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertGig, insertPurchase, type BoughtLead } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 60_000);
afterAll(() => app.close());

const db = () => app.database.db;
/** Times as a reader in the site's default zone reads them (every test user has no zone of their own unless set). */
const defaultTime = () => readerTime(null, app.config);
const lineOf = (visit: TestVisit, zone: string | null = null) => visitBookedLine(readerTime(zone, app.config).visitWindow(visit.startsAt, visit.windowMinutes));
const page = (userId: string, cursor: string | null = null): Promise<Page<VisitListItem>> => visitListPage(db(), userId, cursor, defaultTime());
const html = async (user: TestUser, path: string) => {
  const response = await user.client.get(path);
  expect(response.status, path).toBe(200);
  return decodeHtml(await response.text());
};
const handleOf = async (diggerId: string) => (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)))[0]!.handle;
const visitRow = async (id: string) => (await db().select().from(visits).where(eq(visits.id, id)))[0]!;

/** By start: soonest first (the upcoming part) or latest first (the past part), ties by id. */
const soonest = (a: TestVisit, b: TestVisit) => a.startsAt.getTime() - b.startsAt.getTime() || a.id.localeCompare(b.id);
const latest = (a: TestVisit, b: TestVisit) => -soonest(a, b);

describe("/visits", () => {
  it("lists the upcoming visits soonest first, then the past ones latest first, 20 a page with one cursor across the two parts", async () => {
    const lead = await boughtLead(app);
    const upcoming: TestVisit[] = [];
    const past: TestVisit[] = [];
    // Written out of order: the list's order is the query's.
    for (const hours of [80, 5, 140, 30, 9, 200, 60, 17, 100, 45, 300, 12, 70, 25]) upcoming.push(await insertVisit(app, lead.threadId, hoursFromNow(hours)));
    // Its window opened half an hour ago and closes in half an hour: still upcoming, the soonest.
    upcoming.push(await insertVisit(app, lead.threadId, hoursFromNow(-0.5), { windowMinutes: 60 }));
    for (const hours of [-10, -50, -15, -90, -20, -200, -30, -40, -300, -60]) past.push(await insertVisit(app, lead.threadId, hoursFromNow(hours)));
    // Cancelled: past, whenever it was to be; the one still to come is the latest of the past.
    past.push(await insertVisit(app, lead.threadId, hoursFromNow(48), { cancelledBy: "client", reason: "We sold the house", late: false }));
    past.push(await insertVisit(app, lead.threadId, hoursFromNow(-70), { cancelledBy: "digger", reason: "Van broke down", late: true }));
    const order = [...upcoming.sort(soonest), ...past.sort(latest)].map((visit) => visit.id);
    expect(order).toHaveLength(27);

    const first = await page(lead.digger.id);
    expect(first.items.map((item) => item.id)).toEqual(order.slice(0, 20));
    expect(first.items.map((item) => item.part)).toEqual([...Array(15).fill("upcoming"), ...Array(5).fill("past")]);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(lead.digger.id, first.nextCursor);
    expect(second.items.map((item) => item.id)).toEqual(order.slice(20));
    expect(second.items.every((item) => item.part === "past")).toBe(true);
    expect(second.nextCursor).toBeNull();
    // The client of the thread reads the same visits in the same order.
    expect([...(await page(lead.client.id)).items, ...(await page(lead.client.id, first.nextCursor)).items].map((item) => item.id)).toEqual(order);

    // Each entry: its line, the gig, the other party, what stands, and the thread.
    const soon = first.items[0]!;
    expect(soon).toMatchObject({ threadId: lead.threadId, gigTitle: lead.gig.title, line: lineOf(upcoming[0]!), withLine: visitWithLine("Clara") });
    const cancelled = first.items.find((item) => item.id === past[0]!.id)!;
    expect(cancelled.cancelled).toBe(cancelledLine("Clara", "We sold the house"));
    const late = second.items.find((item) => item.line === lineOf(past.find((visit) => visit.lateCancellation)!))!;
    expect(late.cancelled).toBe(cancelledLine("you", "Van broke down"));
    expect(late.states).toContain(VISIT_TEXTS.lateCancellation);

    // The page: both parts under their headings, each entry linking its thread; its next page by the cursor.
    const body = await html(lead.digger, "/visits");
    expect(body).toMatch(new RegExp(`<h1[^>]*>${VISIT_TEXTS.visits}</h1>`));
    expect(body.indexOf(VISIT_TEXTS.upcoming)).toBeLessThan(body.indexOf(lineOf(upcoming[0]!)));
    expect(body.indexOf(lineOf(upcoming[14]!))).toBeLessThan(body.indexOf(`>${VISIT_TEXTS.past}<`));
    expect(body).toContain(`href="/messages/${lead.threadId}"`);
    expect(body).toContain(`?cursor=${first.nextCursor}`);
    const next = await html(lead.digger, `/visits?cursor=${first.nextCursor}`);
    expect(next).toContain(lineOf(past.sort(latest)[5]!));
    expect(next).not.toContain(lineOf(upcoming[0]!));
  });

  it("moves from the upcoming part to the past one inside a page when the cursor stops among the upcoming visits", async () => {
    const lead = await boughtLead(app);
    const upcoming: TestVisit[] = [];
    for (let i = 0; i < 22; i++) upcoming.push(await insertVisit(app, lead.threadId, hoursFromNow(3 + i * 5)));
    const past = [await insertVisit(app, lead.threadId, hoursFromNow(-5)), await insertVisit(app, lead.threadId, hoursFromNow(-8))];
    const first = await page(lead.client.id);
    expect(first.items.map((item) => item.id)).toEqual(upcoming.slice(0, 20).map((visit) => visit.id));
    const second = await page(lead.client.id, first.nextCursor);
    expect(second.items.map((item) => item.id)).toEqual([...upcoming.slice(20), ...past].map((visit) => visit.id));
    expect(second.items.map((item) => item.part)).toEqual(["upcoming", "upcoming", "past", "past"]);
    expect(second.nextCursor).toBeNull();
  });

  it("shows each person their own visits only, as digger and as client for someone who is both", async () => {
    const mine = await boughtLead(app, { clientName: "Olive Owner" });
    const theirs = await boughtLead(app, { clientName: "Stella Stranger" });
    const myVisit = await insertVisit(app, mine.threadId, hoursFromNow(20));
    const theirVisit = await insertVisit(app, theirs.threadId, hoursFromNow(21));
    // The digger of `mine` also posted a gig, which another digger bought: they are its client.
    const asClient = await boughtLead(app, { gig: await insertGig(app, mine.digger.id) });
    const asClientVisit = await insertVisit(app, asClient.threadId, hoursFromNow(22));

    expect((await page(mine.digger.id)).items.map((item) => [item.id, item.withLine])).toEqual([
      [myVisit.id, visitWithLine("Olive")],
      [asClientVisit.id, visitWithLine(await handleOf(asClient.digger.diggerId))],
    ]);
    expect((await page(mine.client.id)).items.map((item) => [item.id, item.withLine])).toEqual([[myVisit.id, visitWithLine(await handleOf(mine.digger.diggerId))]]);
    expect((await page(theirs.client.id)).items.map((item) => item.id)).toEqual([theirVisit.id]);

    for (const path of ["/visits", "/visits.data"]) {
      const body = await html(mine.digger, path);
      expect(body).toContain(lineOf(myVisit));
      expect(body).toContain(asClient.gig.title);
      expect(body).not.toContain(theirs.gig.title);
      expect(body).not.toContain(lineOf(theirVisit));
      expect(body).not.toContain("Stella");
    }
    const stranger = await signUpAs(app, "consumer", "Nora Nobody");
    const empty = await html(stranger, "/visits");
    expect(empty).toContain(VISIT_TEXTS.none);
    expect(empty).not.toContain(mine.gig.title);
  });

  it("writes each visit's time in its reader's zone, the same in the page and its data", async () => {
    const lead = await boughtLead(app);
    await changeUser(app, lead.digger.id, { timeZone: "America/Chicago" });
    await changeUser(app, lead.client.id, { timeZone: "America/Los_Angeles" });
    const visit = await insertVisit(app, lead.threadId, hoursFromNow(75), { windowMinutes: 120 });
    const chicago = lineOf(visit, "America/Chicago");
    const losAngeles = lineOf(visit, "America/Los_Angeles");
    expect(chicago).not.toBe(losAngeles);
    expect(chicago).toMatch(/C[SD]T$/);
    expect(losAngeles).toMatch(/P[SD]T$/);
    for (const path of ["/visits", "/visits.data"]) {
      expect(await html(lead.digger, path)).toContain(chicago);
      const client = await html(lead.client, path);
      expect(client).toContain(losAngeles);
      expect(client).not.toContain(chicago);
    }
  });

  it("reads each party's visits index in each part's order and stops at a page: no sort but the page's own", async () => {
    const lead = await boughtLead(app);
    for (const hours of [-30, -5, 6, 40]) await insertVisit(app, lead.threadId, hoursFromNow(hours));
    for (const [part, cursor] of [
      [0, null],
      [0, encodeCursor([0, "2026-11-21T10:00:00.123456Z", lead.threadId])],
      [1, encodeCursor([1, "2026-11-21T10:00:00.123456Z", lead.threadId])],
    ] as const) {
      const recorded: Statement[] = [];
      await visitListPage(recordingDb(app, recorded), lead.client.id, cursor, defaultTime());
      const text = await plan(app, recorded.at(-1)!);
      // The upcoming part (unless the cursor is past it) walks both indexes forwards, soonest first.
      if (part === 0) expect(text).toMatch(/Index Scan using visits_digger_idx on visits\b/);
      if (part === 0) expect(text).toMatch(/Index Scan using visits_client_idx on visits\b/);
      if (part === 1) expect(text).not.toMatch(/ends_at > now\(\)/);
      // The past part walks both indexes backwards, latest first.
      expect(text).toMatch(/Index Scan Backward using visits_digger_idx/);
      expect(text).toMatch(/Index Scan Backward using visits_client_idx/);
      // One sort: the page's own rows (at most 42) into their parts' order; each half is the index's order.
      expect(text.match(/->\s+Sort\s+\(/g) ?? []).toHaveLength(1);
      if (cursor) expect(text).toMatch(/ROW\(starts_at, id\) [<>] ROW\(/);
    }
  });

  it("sends a visitor to sign in and back", async () => {
    const response = await new SessionClient(app).get("/visits");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth?redirect=%2Fvisits");
  });
});

describe("'Visit booked' on the cards", () => {
  it("shows a lead's next booked visit on /my-leads, and a gig's soonest with the digger's handle on /my-gigs", async () => {
    const first = await boughtLead(app);
    const second = await boughtLead(app, { client: first.client, gig: first.gig });
    const quiet = await boughtLead(app, { client: first.client });
    const cancelled = await insertVisit(app, first.threadId, hoursFromNow(10), { cancelledBy: "digger", reason: "Sick" });
    await insertVisit(app, first.threadId, hoursFromNow(-30));
    const firstNext = await insertVisit(app, first.threadId, hoursFromNow(50));
    const later = await insertVisit(app, first.threadId, hoursFromNow(90));
    const secondNext = await insertVisit(app, second.threadId, hoursFromNow(30));

    const leads = await html(first.digger, "/my-leads");
    expect(leads).toContain(lineOf(firstNext));
    expect(leads).not.toContain(lineOf(cancelled));
    expect(leads).not.toContain(lineOf(later));
    expect(await html(second.digger, "/my-leads")).toContain(lineOf(secondNext));
    expect(await html(quiet.digger, "/my-leads")).not.toContain("Visit booked:");

    const gigs = await html(first.client, "/my-gigs");
    const window = defaultTime().visitWindow(secondNext.startsAt, secondNext.windowMinutes);
    expect(gigs).toContain(visitBookedWithLine(window, await handleOf(second.digger.diggerId)));
    expect(gigs).not.toContain(lineOf(firstNext));
    // One line, on the gig with visits: the other gig's card has none.
    expect(gigs.split('data-testid="visit-booked"').length - 1).toBe(1);
  });
});

describe("'Kept {k} of {n} visits'", () => {
  it("shows from 3 counted visits on the profile, the Browse Talent card and the client's record; a contradiction counts in neither, a late cancellation only against its canceller", async () => {
    const lead: BoughtLead = await boughtLead(app, { clientName: "Kit Keeper" });
    const handle = await handleOf(lead.digger.diggerId);
    const viewer = await diggerWithProfile(app);
    const otherGig = await insertGig(app, lead.client.id, { title: `Another job of Kit ${Date.now()}` });
    const record = async (userId: string, role: "digger" | "client") =>
      (await db().select({ kept: visitRecords.kept, counted: visitRecords.counted }).from(visitRecords).where(and(eq(visitRecords.userId, userId), eq(visitRecords.role, role))))[0];
    const shown = async () => ({
      profile: await html(viewer, `/digger/${lead.digger.diggerId}`),
      card: await html(viewer, `/browse-diggers?q=${encodeURIComponent(handle)}`),
      client: await html(viewer, `/gig/${otherGig.id}`),
    });

    await insertVisit(app, lead.threadId, hoursFromNow(-100), { diggerOutcome: "visited" });
    await insertVisit(app, lead.threadId, hoursFromNow(-80), { diggerOutcome: "client_absent" });
    // The digger says they came, the client says not: in neither figure.
    await insertVisit(app, lead.threadId, hoursFromNow(-60), { diggerOutcome: "visited", clientOutcome: "digger_absent" });
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 2, counted: 2 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 1, counted: 2 });
    let pages = await shown();
    expect(pages.card).toContain(handle);
    expect(pages.client).toContain(RECORD_TITLE);
    for (const body of Object.values(pages)) expect(body).not.toMatch(/Kept \d+ of \d+ visits?/);

    // The client cancels late: missed for the client (3 counted), nothing for the digger.
    await insertVisit(app, lead.threadId, hoursFromNow(10), { cancelledBy: "client", reason: "Away", late: true });
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 2, counted: 2 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 1, counted: 3 });
    pages = await shown();
    expect(pages.client).toContain("Kept 1 of 3 visits");
    expect(pages.profile).not.toMatch(/Kept \d+ of \d+ visits?/);
    expect(pages.card).not.toMatch(/Kept \d+ of \d+ visits?/);

    // The digger cancels late: missed for the digger (3 counted), nothing more for the client.
    await insertVisit(app, lead.threadId, hoursFromNow(12), { cancelledBy: "digger", reason: "Double-booked", late: true });
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 2, counted: 3 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 1, counted: 3 });
    pages = await shown();
    expect(pages.profile).toContain(KEPT_VISITS_TERM);
    expect(pages.profile).toContain("Kept 2 of 3 visits");
    expect(pages.card).toContain("Kept 2 of 3 visits");
    expect(pages.client).toContain("Kept 1 of 3 visits");
    expect(pages.client).not.toContain("Kept 2 of 3 visits");
    // The gig page's data, as the browser reads it on navigation.
    expect(await html(viewer, `/gig/${otherGig.id}.data`)).toContain("Kept 1 of 3 visits");
  });
});

describe("cancelled by the system", () => {
  /** A booked visit to come and one already over in `lead`'s thread. */
  async function twoVisits(lead: BoughtLead) {
    return { upcoming: await insertVisit(app, lead.threadId, hoursFromNow(30)), over: await insertVisit(app, lead.threadId, hoursFromNow(-30)) };
  }
  const bellOf = (userId: string, threadId: string) =>
    db().select({ text: notifications.text }).from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, "visit.cancelled"), eq(notifications.link, `/messages/${threadId}`)));

  it("cancels a suspended account's upcoming visits, the other party told (never the suspended account); not those already over, nor other people's", async () => {
    const lead = await boughtLead(app);
    const asClient = await boughtLead(app, { gig: await insertGig(app, lead.digger.id) });
    const elsewhere = await boughtLead(app);
    const { upcoming, over } = await twoVisits(lead);
    const theirs = await insertVisit(app, asClient.threadId, hoursFromNow(40));
    const untouched = await insertVisit(app, elsewhere.threadId, hoursFromNow(30));

    const operator = await signUpOperator(app);
    const response = await operator.client.post(`/ops/users/${lead.digger.id}`, { intent: "suspend", reason: "Repeated no-shows" });
    expect(response.status).toBe(200);

    for (const visit of [upcoming, theirs]) expect(await visitRow(visit.id)).toMatchObject({ status: "cancelled", cancelledBy: "system", lateCancellation: false, cancelReason: null });
    expect(await visitRow(upcoming.id)).toMatchObject({ sequence: upcoming.sequence + 1 });
    for (const visit of [over, untouched]) expect(await visitRow(visit.id)).toMatchObject({ status: "booked", cancelledBy: null });
    expect(await bellOf(lead.client.id, lead.threadId)).toHaveLength(1);
    // The suspended account hears nothing of visits (events/recipients.ts `visitRecipients`).
    expect(await bellOf(lead.digger.id, lead.threadId)).toHaveLength(0);
    expect(await bellOf(asClient.digger.id, asClient.threadId)).toHaveLength(1);
    // The client's list: the visit now past, 'Cancelled'.
    const item = (await page(lead.client.id)).items.find((entry) => entry.id === upcoming.id)!;
    expect(item).toMatchObject({ part: "past", cancelled: cancelledLine(null, null) });
    // The system's cancellations count in no record (nor do unmarked visits).
    const records = await db().select({ counted: visitRecords.counted }).from(visitRecords).where(inArray(visitRecords.userId, [lead.digger.id, lead.client.id]));
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(records.every((row) => row.counted === 0)).toBe(true);
  });

  it("cancels the upcoming visits between a blocked pair, in every thread of theirs, with the block; not those already over, nor with anyone else", async () => {
    const lead = await boughtLead(app);
    const again = await boughtLead(app, { client: lead.client });
    // The same digger bought another gig of the same client: a second thread between the two.
    const sameDigger = await insertGig(app, lead.client.id);
    const purchase = await insertPurchase(app, sameDigger, lead.digger.diggerId);
    const [secondThread] = await db().select({ id: threads.id }).from(threads).where(eq(threads.purchaseId, purchase.id));
    const { upcoming, over } = await twoVisits(lead);
    const inSecond = await insertVisit(app, secondThread!.id, hoursFromNow(50));
    const withOther = await insertVisit(app, again.threadId, hoursFromNow(30));

    const response = await lead.client.client.post(`/messages/${lead.threadId}`, { intent: "block", js: "1" });
    expect(response.status).toBe(200);

    for (const visit of [upcoming, inSecond]) expect(await visitRow(visit.id)).toMatchObject({ status: "cancelled", cancelledBy: "system" });
    for (const visit of [over, withOther]) expect(await visitRow(visit.id)).toMatchObject({ status: "booked" });
    expect(await bellOf(lead.digger.id, lead.threadId)).toHaveLength(1);
    expect(await bellOf(lead.client.id, secondThread!.id)).toHaveLength(1);
  });
});
