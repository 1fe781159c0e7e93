/**
 * Site visits in the thread (issue 50): every step through the thread page's own form posts
 * (app/routes/messages.$threadId.tsx's intents, server/conversations/visits/). A digger in
 * America/Chicago proposes times in their zone; a client in America/Los_Angeles reads them in
 * theirs, on a day the clocks change too; one open proposal per thread ('Replaced by new times');
 * of two racing Book clicks one books; new times for a booked visit move the same visit
 * (sequence + 1); a refunded lead, a block, another thread's ids, the wrong party and a visitor
 * are refused; a cancellation within 24 hours is late; the marks come after the window, within 7
 * days, once, by the right side; kept and missed visits reach `visit_records`; out-of-range
 * times and over-long texts are refused with core/visits.ts's messages. Times are moved in the
 * database where a test needs a visit in the past or close. Runs on PGlite, and on PostgreSQL
 * with TEST_DATABASE_URL.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, wallClockInstant } from "../../core/dates.ts";
import { MESSAGE_TEXTS, type ThreadView } from "../../core/messages.ts";
import { bookLabel, VISIT_ANSWERS, VISIT_FIELD_MESSAGES, VISIT_PROPOSALS_PER_DAY, VISIT_TEXTS, visitBookedLine } from "../../core/visits.ts";
import { exportedThreads, purgeMessagesOf } from "../../server/conversations/privacy.ts";
import { sendMessage } from "../../server/conversations/send-message.ts";
import { threadPage } from "../../server/conversations/thread.ts";
import { queryRows } from "../../server/db/client.ts";
import { blocks, diggerProfiles, leadPurchases, refunds, visitOptions, visitProposals, visitRecords, visits } from "../../server/db/schema.ts";
import { settleGuarantee } from "../../server/leads/settle-guarantee.ts";
import { readerTime } from "../../server/reader-time.ts";
import { changeUser, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, type BoughtLead } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

const CHICAGO = "America/Chicago";
const LOS_ANGELES = "America/Los_Angeles";
const db = () => app.database.db;

/** A wall clock in `zone` at `at`: its day (YYYY-MM-DD) and time (HH:MM). */
function wallIn(zone: string, at: Date): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}
/** The day `days` after the digger's today in Chicago. */
const chicagoDay = (days: number) => addDays(wallIn(CHICAGO, new Date()).date, days);

interface Option {
  date: string;
  time: string;
  window?: string;
}
const optionFields = (options: Option[]) =>
  Object.fromEntries(options.flatMap((option, n) => [[`options.${n}.date`, option.date], [`options.${n}.time`, option.time], [`options.${n}.window`, option.window ?? "120"]]));

/** A form post to the thread, as the page's forms send it: its status and its text (HTML entities decoded). */
async function post(user: TestUser, threadId: string, fields: Record<string, string>): Promise<{ status: number; body: string; location: string | null }> {
  const response = await user.client.post(`/messages/${threadId}`, fields);
  return { status: response.status, body: decodeHtml(await response.text()), location: location(response) };
}
const page = async (user: TestUser, threadId: string) => decodeHtml(await (await user.client.get(`/messages/${threadId}`)).text());

/** A lead whose digger reads Chicago time and whose client reads Los Angeles time. */
async function zonedLead(): Promise<BoughtLead> {
  const lead = await boughtLead(app);
  await changeUser(app, lead.digger.id, { timeZone: CHICAGO });
  await changeUser(app, lead.client.id, { timeZone: LOS_ANGELES });
  return lead;
}

async function propose(lead: BoughtLead, options: Option[], note?: string) {
  const answer = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields(options), ...(note === undefined ? {} : { note }) });
  expect(answer.status, answer.body.slice(0, 300)).toBe(200);
  expect(answer.body).toContain(VISIT_TEXTS.proposed);
  const [open] = await db()
    .select()
    .from(visitProposals)
    .where(and(eq(visitProposals.threadId, lead.threadId), eq(visitProposals.status, "open")));
  return open!;
}
const book = (lead: BoughtLead, proposalId: string, position = 0) => post(lead.client, lead.threadId, { intent: "book-visit", proposalId, position: String(position) });

/** A visit booked through the forms, `days` ahead at 10:00 in Chicago with a 2-hour window. */
async function bookedVisit(lead: BoughtLead, days = 5) {
  const proposal = await propose(lead, [{ date: chicagoDay(days), time: "10:00" }]);
  const answer = await book(lead, proposal.id);
  expect(answer.status, answer.body.slice(0, 300)).toBe(200);
  const [visit] = await db().select().from(visits).where(eq(visits.proposalId, proposal.id));
  return visit!;
}
const visitRow = async (id: string) => (await db().select().from(visits).where(eq(visits.id, id)))[0]!;
/** Moves a visit so that its window starts `startHours` from now (negative: past), keeping its length. */
async function moveVisit(id: string, startHours: number) {
  await db()
    .update(visits)
    .set({
      startsAt: sql`now() + make_interval(secs => ${startHours * 3600})`,
      endsAt: sql`now() + make_interval(secs => ${startHours * 3600}) + make_interval(mins => ${visits.windowMinutes})`,
    })
    .where(eq(visits.id, id));
}
const handleOf = async (lead: BoughtLead) => (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, lead.digger.diggerId)))[0]!.handle;
const itemKinds = (view: ThreadView) => view.items.map((item) => (item.kind === "message" ? item.message.body : `${item.kind}`));

describe("proposing and booking across time zones", () => {
  it("writes the digger's times in their zone and shows each party the times in their own, the client's Book buttons only to the client", async () => {
    const lead = await zonedLead();
    await post(lead.digger, lead.threadId, { intent: "send", body: "Can I come and look?", js: "1" });
    const options = [
      { date: chicagoDay(3), time: "09:00", window: "120" },
      { date: chicagoDay(4), time: "14:30", window: "0" },
    ];
    const proposal = await propose(lead, options, "I'll bring <b>samples</b>");
    await post(lead.client, lead.threadId, { intent: "send", body: "Either works", js: "1" });
    expect(proposal.zone).toBe(CHICAGO);
    expect(proposal.visitId).toBeNull();
    const rows = await db().select().from(visitOptions).where(eq(visitOptions.proposalId, proposal.id)).orderBy(asc(visitOptions.position));
    expect(rows.map((row) => [row.startsAt.toISOString(), row.windowMinutes])).toEqual([
      [wallClockInstant(options[0]!.date, "09:00", CHICAGO)!.toISOString(), 120],
      [wallClockInstant(options[1]!.date, "14:30", CHICAGO)!.toISOString(), 0],
    ]);

    // The card in the thread's order, between the messages sent before and after it.
    const view = await threadPage(db(), lead.client.id, lead.threadId, null, readerTime(LOS_ANGELES, app.config));
    expect(itemKinds(view)).toEqual(["Can I come and look?", "visit", "Either works"]);

    const la = readerTime(LOS_ANGELES, app.config);
    const chicago = readerTime(CHICAGO, app.config);
    const clientPage = await page(lead.client, lead.threadId);
    const diggerPage = await page(lead.digger, lead.threadId);
    for (const row of rows) {
      expect(clientPage).toContain(`>${la.visitWindow(row.startsAt, row.windowMinutes)}<`);
      expect(clientPage).toContain(`>${bookLabel(la.visitStart(row.startsAt))}<`);
      expect(diggerPage).toContain(`>${chicago.visitWindow(row.startsAt, row.windowMinutes)}<`);
      expect(diggerPage).not.toContain(`>${bookLabel(chicago.visitStart(row.startsAt))}<`);
      // Each reads their own zone, never the other's.
      expect(clientPage).not.toContain(chicago.visitWindow(row.startsAt, row.windowMinutes));
    }
    expect(clientPage).toMatch(/ P[SD]T</);
    expect(diggerPage).toMatch(/ C[SD]T</);
    expect(clientPage).toContain(`>${VISIT_TEXTS.askOtherTimes}<`);
    // The note is text: its markup shows as written, never as markup.
    expect(clientPage).toContain("Note: I'll bring &lt;b&gt;samples&lt;/b&gt;");
    expect(clientPage).not.toContain("<b>samples</b>");

    // Booked: both see 'Visit booked: …' in their own zone, in the banner and on the card.
    const booked = await book(lead, proposal.id, 1);
    expect(booked.status).toBe(200);
    expect(booked.body).toContain(VISIT_TEXTS.booked);
    const [visit] = await db().select().from(visits).where(eq(visits.threadId, lead.threadId));
    expect(visit).toMatchObject({ diggerUserId: lead.digger.id, clientId: lead.client.id, proposalId: proposal.id, windowMinutes: 0, sequence: 0, status: "booked" });
    expect(visit!.startsAt.toISOString()).toBe(rows[1]!.startsAt.toISOString());
    expect(visit!.endsAt.toISOString()).toBe(rows[1]!.startsAt.toISOString());
    const [bookedProposal] = await db().select().from(visitProposals).where(eq(visitProposals.id, proposal.id));
    expect(bookedProposal).toMatchObject({ status: "booked", bookedPosition: 1 });
    const clientBooked = await page(lead.client, lead.threadId);
    const diggerBooked = await page(lead.digger, lead.threadId);
    const clientLine = visitBookedLine(la.visitWindow(visit!.startsAt, 0));
    const diggerLine = visitBookedLine(chicago.visitWindow(visit!.startsAt, 0));
    // In the banner and on the card.
    expect(clientBooked.split(`>${clientLine}<`).length - 1).toBe(2);
    expect(diggerBooked.split(`>${diggerLine}<`).length - 1).toBe(2);
    expect(clientBooked).not.toContain(`>${VISIT_TEXTS.askOtherTimes}<`);
    expect(clientBooked).not.toContain(">Book ");
    // The reminders' rows, written by the database at booking.
    expect(await queryRows(db(), sql`select kind from visit_reminders where visit_id = ${visit!.id} order by kind`)).toEqual([{ kind: "day" }, { kind: "hours" }]);
  });

  it("reads a time on the day the clocks change in the digger's zone: before and after the change, and refuses one that does not exist", async () => {
    // The Sunday summer time begins in the United States (2027-03-14): a clock a week and a half
    // before it, so that the day is within 60 days. Accounts signed in on that clock.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-03-03T18:00:00Z") });
    const lead = await zonedLead();
    const skipped = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: "2027-03-14", time: "02:30" }]) });
    expect(skipped.status).toBe(400);
    expect(skipped.body).toContain(VISIT_FIELD_MESSAGES.skipped);

    const proposal = await propose(lead, [
      { date: "2027-03-14", time: "01:30", window: "60" },
      { date: "2027-03-14", time: "09:00", window: "120" },
    ]);
    const rows = await db().select().from(visitOptions).where(eq(visitOptions.proposalId, proposal.id)).orderBy(asc(visitOptions.position));
    // 1:30 AM is still standard time (UTC-6); 9:00 AM is summer time (UTC-5).
    expect(rows.map((row) => row.startsAt.toISOString())).toEqual(["2027-03-14T07:30:00.000Z", "2027-03-14T14:00:00.000Z"]);
    const clientPage = await page(lead.client, lead.threadId);
    // Los Angeles changes the same night: 11:30 PM PST the evening before, 7:00 AM PDT.
    expect(clientPage).toContain(">Sat, Mar 13, 11:30 PM PST – Sun, Mar 14, 12:30 AM PST<");
    expect(clientPage).toContain(">Book Sat, Mar 13, 11:30 PM<");
    expect(clientPage).toContain(">Sun, Mar 14, 7:00 – 9:00 AM PDT<");
    expect(clientPage).toContain(">Book Sun, Mar 14, 7:00 AM<");
    const diggerPage = await page(lead.digger, lead.threadId);
    // The digger's first window crosses the change: each end says its own zone.
    expect(diggerPage).toContain(">Sun, Mar 14, 1:30 AM CST – 3:30 AM CDT<");
    expect(diggerPage).toContain(">Sun, Mar 14, 9:00 – 11:00 AM CDT<");
    expect(diggerPage).not.toContain(">Book ");

    expect((await book(lead, proposal.id, 1)).status).toBe(200);
    const [visit] = await db().select().from(visits).where(eq(visits.proposalId, proposal.id));
    expect(visit!.startsAt.toISOString()).toBe("2027-03-14T14:00:00.000Z");
    expect(visit!.endsAt.toISOString()).toBe("2027-03-14T16:00:00.000Z");
    expect(await page(lead.client, lead.threadId)).toContain("Visit booked: Sun, Mar 14, 7:00 – 9:00 AM PDT");
    expect(await page(lead.digger, lead.threadId)).toContain("Visit booked: Sun, Mar 14, 9:00 – 11:00 AM CDT");
  });
});

describe("one open proposal, one booking", () => {
  it("replaces the open proposal with new times ('Replaced by new times'), and the old one can no longer be booked", async () => {
    const lead = await zonedLead();
    const first = await propose(lead, [{ date: chicagoDay(2), time: "10:00" }]);
    const second = await propose(lead, [{ date: chicagoDay(3), time: "11:00" }]);
    const statuses = await db().select({ id: visitProposals.id, status: visitProposals.status }).from(visitProposals).where(eq(visitProposals.threadId, lead.threadId));
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({ [first.id]: "replaced", [second.id]: "open" });
    for (const user of [lead.client, lead.digger]) expect(await page(user, lead.threadId)).toContain(VISIT_TEXTS.replaced);
    const stale = await book(lead, first.id);
    expect(stale.status).toBe(409);
    expect(stale.body).toContain(VISIT_ANSWERS.notOpen);
    expect(await db().select().from(visits).where(eq(visits.threadId, lead.threadId))).toEqual([]);
  });

  it("books once under two racing clicks for different times: one visit, one answer 'These times are no longer open'", async () => {
    const lead = await zonedLead();
    const proposal = await propose(lead, [
      { date: chicagoDay(2), time: "10:00" },
      { date: chicagoDay(3), time: "10:00" },
    ]);
    const answers = await Promise.all([book(lead, proposal.id, 0), book(lead, proposal.id, 1)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toContain(VISIT_ANSWERS.notOpen);
    expect(answers.find((answer) => answer.status === 200)!.body).toContain(VISIT_TEXTS.booked);
    const booked = await db().select().from(visits).where(eq(visits.threadId, lead.threadId));
    expect(booked).toHaveLength(1);
    const [row] = await db().select().from(visitProposals).where(eq(visitProposals.id, proposal.id));
    const option = (await db().select().from(visitOptions).where(and(eq(visitOptions.proposalId, proposal.id), eq(visitOptions.position, row!.bookedPosition!))))[0]!;
    expect(booked[0]!.startsAt.toISOString()).toBe(option.startsAt.toISOString());
  });

  it("keeps one open proposal when two proposals race: each answered (sent, or refused as sent meanwhile), never a fault", async () => {
    const lead = await zonedLead();
    const fields = (days: number) => ({ intent: "propose-visit", ...optionFields([{ date: chicagoDay(days), time: "10:00" }]) });
    const answers = await Promise.all([post(lead.digger, lead.threadId, fields(2)), post(lead.digger, lead.threadId, fields(3))]);
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body).toContain(VISIT_ANSWERS.proposedMeanwhile);
    }
    const rows = await db().select({ status: visitProposals.status }).from(visitProposals).where(eq(visitProposals.threadId, lead.threadId));
    expect(rows.filter((row) => row.status === "open")).toHaveLength(1);
    expect(rows.length).toBe(answers.filter((answer) => answer.status === 200).length);
  });

  it("asks for other times: the proposal ends, the digger may propose again; a time already past cannot be booked", async () => {
    const lead = await zonedLead();
    const proposal = await propose(lead, [{ date: chicagoDay(2), time: "10:00" }]);
    const asked = await post(lead.client, lead.threadId, { intent: "ask-other-times", proposalId: proposal.id });
    expect(asked.status).toBe(200);
    expect(asked.body).toContain(VISIT_TEXTS.askedOtherTimes);
    expect((await db().select().from(visitProposals).where(eq(visitProposals.id, proposal.id)))[0]!.status).toBe("other_times");
    expect(await page(lead.digger, lead.threadId)).toContain(VISIT_TEXTS.otherTimesAsked);
    expect((await book(lead, proposal.id)).status).toBe(409);
    expect((await post(lead.client, lead.threadId, { intent: "ask-other-times", proposalId: proposal.id })).status).toBe(409);

    const next = await propose(lead, [{ date: chicagoDay(3), time: "10:00" }]);
    await db().update(visitOptions).set({ startsAt: sql`now() - interval '1 minute'` }).where(eq(visitOptions.proposalId, next.id));
    const late = await book(lead, next.id);
    expect(late.status).toBe(409);
    expect(late.body).toContain(VISIT_ANSWERS.notOpen);
  });
});

describe("reschedule", () => {
  it("moves the same visit (same id, sequence + 1), clears the client's answers, and marks the old card moved; asking other times keeps the visit where it was", async () => {
    const lead = await zonedLead();
    const visit = await bookedVisit(lead, 5);
    expect((await post(lead.client, lead.threadId, { intent: "confirm-visit", visitId: visit.id })).status).toBe(200);
    expect(await page(lead.digger, lead.threadId)).toContain(VISIT_TEXTS.clientConfirmed);

    // New times while it is booked: a Reschedule of it.
    const moving = await propose(lead, [{ date: chicagoDay(7), time: "15:00" }]);
    expect(moving.visitId).toBe(visit.id);
    expect(await page(lead.client, lead.threadId)).toContain(VISIT_TEXTS.newTimes);
    // Asked away: the visit stays booked at its time.
    expect((await post(lead.client, lead.threadId, { intent: "ask-other-times", proposalId: moving.id })).status).toBe(200);
    expect(await visitRow(visit.id)).toMatchObject({ status: "booked", sequence: 0, proposalId: visit.proposalId, startsAt: visit.startsAt });

    // New times for a visit whose window has since opened: not booked (the visit stays as it was).
    const opened = await propose(lead, [{ date: chicagoDay(9), time: "15:00" }]);
    await moveVisit(visit.id, -0.5);
    const tooLate = await book(lead, opened.id);
    expect(tooLate.status).toBe(409);
    expect(tooLate.body).toContain(VISIT_ANSWERS.started);
    await db().update(visits).set({ startsAt: visit.startsAt, endsAt: visit.endsAt }).where(eq(visits.id, visit.id));

    const again = await propose(lead, [{ date: chicagoDay(8), time: "15:00" }]);
    expect(again.visitId).toBe(visit.id);
    expect((await book(lead, again.id)).status).toBe(200);
    const moved = await visitRow(visit.id);
    expect(await db().select({ id: visits.id }).from(visits).where(eq(visits.threadId, lead.threadId))).toEqual([{ id: visit.id }]);
    expect(moved).toMatchObject({ status: "booked", sequence: 1, proposalId: again.id, clientConfirmedAt: null, changeRequestedAt: null });
    expect(moved.startsAt.toISOString()).toBe(wallClockInstant(chicagoDay(8), "15:00", CHICAGO)!.toISOString());
    expect(moved.endsAt.getTime() - moved.startsAt.getTime()).toBe(120 * 60_000);
    const diggerPage = await page(lead.digger, lead.threadId);
    expect(diggerPage).toContain(VISIT_TEXTS.moved);
    expect(diggerPage).not.toContain(VISIT_TEXTS.clientConfirmed);
    expect(diggerPage).toContain(visitBookedLine(readerTime(CHICAGO, app.config).visitWindow(moved.startsAt, 120)));
  });

  it("tells the digger the client needs to change; only the visit's client may answer for it", async () => {
    const lead = await zonedLead();
    const visit = await bookedVisit(lead);
    const byDigger = await post(lead.digger, lead.threadId, { intent: "change-visit", visitId: visit.id });
    expect(byDigger.status).toBe(403);
    expect(byDigger.body).toContain(VISIT_ANSWERS.onlyClientAnswers);
    expect((await post(lead.digger, lead.threadId, { intent: "confirm-visit", visitId: visit.id })).status).toBe(403);
    const changed = await post(lead.client, lead.threadId, { intent: "change-visit", visitId: visit.id });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain(VISIT_TEXTS.changeAsked);
    expect((await visitRow(visit.id)).changeRequestedAt).not.toBeNull();
    expect(await page(lead.digger, lead.threadId)).toContain(VISIT_TEXTS.changeRequested);
  });
});

describe("who may", () => {
  it("refuses a lead refunded in full: no proposal, no booking", async () => {
    const lead = await zonedLead();
    const proposal = await propose(lead, [{ date: chicagoDay(2), time: "10:00" }]);
    const [purchase] = await db().select({ amount: leadPurchases.amountPaidCents }).from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId));
    await db().insert(refunds).values({ leadPurchaseId: lead.purchaseId, reason: "duplicate_payment", amountCents: purchase!.amount });
    const proposing = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) });
    expect(proposing.status).toBe(409);
    expect(proposing.body).toContain(VISIT_ANSWERS.refunded);
    const booking = await book(lead, proposal.id);
    expect(booking.status).toBe(409);
    expect(booking.body).toContain(VISIT_ANSWERS.refunded);
    expect(await db().select().from(visits).where(eq(visits.threadId, lead.threadId))).toEqual([]);
    // The page offers neither.
    expect(await page(lead.client, lead.threadId)).not.toContain(">Book ");
    expect((await threadPage(db(), lead.digger.id, lead.threadId, null, readerTime(CHICAGO, app.config))).visitsAllowed).toBe(false);
  });

  it("refuses a blocked thread either way", async () => {
    const lead = await zonedLead();
    const proposal = await propose(lead, [{ date: chicagoDay(2), time: "10:00" }]);
    await db().insert(blocks).values({ blockerId: lead.client.id, blockedId: lead.digger.id });
    const proposing = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) });
    expect(proposing.status).toBe(403);
    expect(proposing.body).toContain(VISIT_ANSWERS.blocked);
    const booking = await book(lead, proposal.id);
    expect(booking.status).toBe(403);
    expect(booking.body).toContain(VISIT_ANSWERS.blocked);
    expect(await db().select().from(visits).where(eq(visits.threadId, lead.threadId))).toEqual([]);
  });

  it("refuses a suspended account's proposal", async () => {
    const lead = await zonedLead();
    await changeUser(app, lead.digger.id, { suspendedAt: new Date(), suspendedReason: "Spam" });
    // Suspension signs the account out; a session that outlived it still cannot propose.
    const answer = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) });
    expect([302, 403]).toContain(answer.status);
    if (answer.status === 403) expect(answer.body).toContain(VISIT_ANSWERS.suspended);
    expect(await db().select().from(visitProposals).where(eq(visitProposals.threadId, lead.threadId))).toEqual([]);
  });

  it("refuses the wrong party (403), another thread's proposal and visit, a stranger (404) and a visitor (to sign in)", async () => {
    const lead = await zonedLead();
    const other = await zonedLead();
    const proposal = await propose(lead, [{ date: chicagoDay(2), time: "10:00" }]);
    const theirs = await bookedVisit(other);
    const theirProposal = await propose(other, [{ date: chicagoDay(9), time: "10:00" }]);

    const byClient = await post(lead.client, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) });
    expect(byClient.status).toBe(403);
    expect(byClient.body).toContain(VISIT_ANSWERS.onlyDigger);
    const byDigger = await post(lead.digger, lead.threadId, { intent: "book-visit", proposalId: proposal.id, position: "0" });
    expect(byDigger.status).toBe(403);
    expect(byDigger.body).toContain(VISIT_ANSWERS.onlyClient);
    expect((await post(lead.digger, lead.threadId, { intent: "ask-other-times", proposalId: proposal.id })).status).toBe(403);

    // Another thread's ids, through one's own thread: not found; nothing changes there.
    for (const [user, fields] of [
      [lead.client, { intent: "book-visit", proposalId: theirProposal.id, position: "0" }],
      [lead.client, { intent: "ask-other-times", proposalId: theirProposal.id }],
      [lead.client, { intent: "cancel-visit", visitId: theirs.id, reason: "Not mine" }],
      [lead.client, { intent: "confirm-visit", visitId: theirs.id }],
      [lead.client, { intent: "change-visit", visitId: theirs.id }],
      [lead.digger, { intent: "mark-visit", visitId: theirs.id, outcome: "visited" }],
      [lead.digger, { intent: "cancel-visit", visitId: "not-a-uuid", reason: "Nothing" }],
    ] as const) {
      const answer = await post(user, lead.threadId, fields);
      expect(answer.status, fields.intent).toBe(404);
      expect(answer.body, fields.intent).toContain(VISIT_ANSWERS.notFound);
    }
    // Their thread itself: the 404 page for a stranger.
    for (const fields of [
      { intent: "book-visit", proposalId: theirProposal.id, position: "0" } as Record<string, string>,
      { intent: "cancel-visit", visitId: theirs.id, reason: "Not mine" },
      { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) },
    ]) {
      expect((await post(lead.client, other.threadId, fields)).status).toBe(404);
      expect((await post(lead.digger, other.threadId, fields)).status).toBe(404);
    }
    const stranger = await signUpAs(app, "consumer", "Stan Stranger");
    expect((await post(stranger, lead.threadId, { intent: "book-visit", proposalId: proposal.id, position: "0" })).status).toBe(404);
    // A visitor: to sign in.
    const signedOut = await new SessionClient(app).post(`/messages/${lead.threadId}`, { intent: "book-visit", proposalId: proposal.id, position: "0" });
    expect(signedOut.status).toBe(302);
    expect(location(signedOut)).toMatch(/^\/auth/);

    expect(await visitRow(theirs.id)).toMatchObject({ status: "booked", clientConfirmedAt: null, changeRequestedAt: null, diggerOutcome: null });
    expect((await db().select().from(visitProposals).where(eq(visitProposals.id, theirProposal.id)))[0]!.status).toBe("open");
    expect((await db().select().from(visitProposals).where(eq(visitProposals.id, proposal.id)))[0]!.status).toBe("open");
  });
});

describe("cancel", () => {
  it("cancels with a reason, 'Late cancellation' within 24 hours of the window; not twice, not once the window opened", async () => {
    const lead = await zonedLead();
    const handle = await handleOf(lead);
    const early = await bookedVisit(lead, 5);
    const cancelled = await post(lead.digger, lead.threadId, { intent: "cancel-visit", visitId: early.id, reason: "My van broke down" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toContain(VISIT_TEXTS.cancelled);
    expect(await visitRow(early.id)).toMatchObject({ status: "cancelled", cancelledBy: "digger", cancelReason: "My van broke down", lateCancellation: false, sequence: 1 });
    expect(await queryRows(db(), sql`select 1 from visit_reminders where visit_id = ${early.id}`)).toEqual([]);
    expect(await page(lead.digger, lead.threadId)).toContain("Cancelled by you: My van broke down");
    const clientPage = await page(lead.client, lead.threadId);
    expect(clientPage).toContain(`Cancelled by ${handle}: My van broke down`);
    expect(clientPage).not.toContain(VISIT_TEXTS.lateCancellation);
    const twice = await post(lead.client, lead.threadId, { intent: "cancel-visit", visitId: early.id, reason: "Again" });
    expect(twice.status).toBe(409);
    expect(twice.body).toContain(VISIT_ANSWERS.cancelled);

    const close = await bookedVisit(lead, 6);
    await moveVisit(close.id, 3);
    expect((await post(lead.client, lead.threadId, { intent: "cancel-visit", visitId: close.id, reason: "Called away" })).status).toBe(200);
    expect(await visitRow(close.id)).toMatchObject({ status: "cancelled", cancelledBy: "client", lateCancellation: true });
    expect(await page(lead.digger, lead.threadId)).toContain(VISIT_TEXTS.lateCancellation);

    const begun = await bookedVisit(lead, 7);
    await moveVisit(begun.id, -0.5);
    const tooLate = await post(lead.client, lead.threadId, { intent: "cancel-visit", visitId: begun.id, reason: "Too late" });
    expect(tooLate.status).toBe(409);
    expect(tooLate.body).toContain(VISIT_ANSWERS.started);
    expect((await visitRow(begun.id)).status).toBe("booked");
  });
});

describe("how the visit went", () => {
  it("takes each side's mark once, after the window closes and within 7 days, from the right side only, never on a cancelled visit", async () => {
    const lead = await zonedLead();
    const visit = await bookedVisit(lead);
    const mark = (user: TestUser, outcome: string, visitId = visit.id) => post(user, lead.threadId, { intent: "mark-visit", visitId, outcome });
    const early = await mark(lead.digger, "visited");
    expect(early.status).toBe(409);
    expect(early.body).toContain(VISIT_ANSWERS.notEnded);

    await moveVisit(visit.id, -3);
    expect(await page(lead.digger, lead.threadId)).toContain(`>${VISIT_TEXTS.clientAbsent}<`);
    expect(await page(lead.client, lead.threadId)).toContain(`>${VISIT_TEXTS.diggerAbsent}<`);
    for (const [user, outcome] of [
      [lead.client, "visited"],
      [lead.client, "client_absent"],
      [lead.digger, "digger_absent"],
    ] as const) {
      const wrong = await mark(user, outcome);
      expect(wrong.status, outcome).toBe(403);
      expect(wrong.body).toContain(VISIT_ANSWERS.notYourMark);
    }
    const marked = await mark(lead.digger, "visited");
    expect(marked.status).toBe(200);
    expect(marked.body).toContain(VISIT_TEXTS.marked);
    const twice = await mark(lead.digger, "client_absent");
    expect(twice.status).toBe(409);
    expect(twice.body).toContain(VISIT_ANSWERS.alreadyMarked);
    expect(await visitRow(visit.id)).toMatchObject({ diggerOutcome: "visited", clientOutcome: null });
    expect(await page(lead.client, lead.threadId)).toContain(`Marked by ${await handleOf(lead)}`);

    const old = await bookedVisit(lead, 6);
    await moveVisit(old.id, -(8 * 24 + 3));
    const closed = await mark(lead.client, "digger_absent", old.id);
    expect(closed.status).toBe(409);
    expect(closed.body).toContain(VISIT_ANSWERS.markClosed);

    const gone = await bookedVisit(lead, 7);
    await post(lead.client, lead.threadId, { intent: "cancel-visit", visitId: gone.id, reason: "Sold the house" });
    await moveVisit(gone.id, -3);
    const onCancelled = await mark(lead.digger, "visited", gone.id);
    expect(onCancelled.status).toBe(409);
    expect(onCancelled.body).toContain(VISIT_ANSWERS.cancelled);
  });

  it("keeps both parties' kept and missed visits: a contradiction counts in neither, a late cancellation against its canceller", async () => {
    const lead = await zonedLead();
    const record = async (userId: string, role: "digger" | "client") =>
      (await db().select({ kept: visitRecords.kept, counted: visitRecords.counted }).from(visitRecords).where(and(eq(visitRecords.userId, userId), eq(visitRecords.role, role))))[0];
    // Seven visits in one thread: the earlier proposals made a day older, under the limit of a day's proposals.
    const ageProposals = () => db().execute(sql`update visit_proposals set created_at = created_at - interval '25 hours' where thread_id = ${lead.threadId}`);
    /** A visit booked, then moved into the past and marked by each side as told. */
    const past = async (marks: { digger?: string; client?: string }) => {
      await ageProposals();
      const visit = await bookedVisit(lead, 4);
      await moveVisit(visit.id, -3);
      if (marks.digger) expect((await post(lead.digger, lead.threadId, { intent: "mark-visit", visitId: visit.id, outcome: marks.digger })).status).toBe(200);
      if (marks.client) expect((await post(lead.client, lead.threadId, { intent: "mark-visit", visitId: visit.id, outcome: marks.client })).status).toBe(200);
    };
    /** A visit cancelled within 24 hours by `by`. */
    const lateCancelled = async (by: TestUser) => {
      await ageProposals();
      const visit = await bookedVisit(lead, 4);
      await moveVisit(visit.id, 5);
      expect((await post(by, lead.threadId, { intent: "cancel-visit", visitId: visit.id, reason: "Something came up" })).status).toBe(200);
      await moveVisit(visit.id, -48);
    };
    await past({ digger: "visited" });
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 1, counted: 1 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 1, counted: 1 });
    await past({ digger: "client_absent" });
    await past({ client: "digger_absent" });
    // In contradiction: the digger says they came, the client says not: neither figure moves.
    await past({ digger: "visited", client: "digger_absent" });
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 2, counted: 3 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 2, counted: 3 });
    // Unmarked: counts in none.
    await past({});
    await lateCancelled(lead.digger);
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 2, counted: 4 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 2, counted: 3 });
    await lateCancelled(lead.client);
    expect(await record(lead.digger.id, "digger")).toEqual({ kept: 2, counted: 4 });
    expect(await record(lead.client.id, "client")).toEqual({ kept: 2, counted: 4 });
  });
});

describe("the forms' limits", () => {
  it("refuses times less than 2 hours ahead or more than 60 days, four times, a note over 500 and a reason over 200 characters, with core's messages", async () => {
    const lead = await zonedLead();
    const soon = wallIn(CHICAGO, new Date(Date.now() + 60 * 60_000));
    const cases: Array<[Record<string, string>, string]> = [
      [optionFields([soon]), VISIT_FIELD_MESSAGES.tooSoon],
      [optionFields([{ date: chicagoDay(61), time: "10:00" }]), VISIT_FIELD_MESSAGES.tooFar],
      [optionFields([1, 2, 3, 4].map((days) => ({ date: chicagoDay(days), time: "10:00" }))), VISIT_FIELD_MESSAGES.tooMany],
      [{ ...optionFields([{ date: chicagoDay(2), time: "10:00" }]), note: "n".repeat(501) }, VISIT_FIELD_MESSAGES.noteTooLong],
      [{ "options.0.window": "90", "options.0.date": chicagoDay(2), "options.0.time": "10:00" }, VISIT_FIELD_MESSAGES.window],
      [{}, VISIT_FIELD_MESSAGES.noTime],
      [optionFields([{ date: "2027-02-30", time: "10:00" }]), VISIT_FIELD_MESSAGES.date],
      [optionFields([{ date: chicagoDay(2), time: "25:00" }]), VISIT_FIELD_MESSAGES.time],
    ];
    for (const [fields, message] of cases) {
      const answer = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...fields });
      expect(answer.status, message).toBe(400);
      expect(answer.body, message).toContain(message);
    }
    expect(await db().select().from(visitProposals).where(eq(visitProposals.threadId, lead.threadId))).toEqual([]);
    // Exactly 500 and three times are fine.
    await propose(lead, [1, 2, 3].map((days) => ({ date: chicagoDay(days), time: "10:00" })), "n".repeat(500));

    const visit = await bookedVisit(lead);
    for (const [reason, message] of [
      ["r".repeat(201), VISIT_FIELD_MESSAGES.reasonTooLong],
      ["   ", VISIT_FIELD_MESSAGES.reasonMissing],
    ] as const) {
      const answer = await post(lead.client, lead.threadId, { intent: "cancel-visit", visitId: visit.id, reason });
      expect(answer.status).toBe(400);
      expect(answer.body).toContain(message);
    }
    expect((await visitRow(visit.id)).status).toBe("booked");
  });
});

describe("what an attack on visits found (issue 50's review)", () => {
  it("books nothing with a suspended account on either side: the client cannot book a suspended digger's times, the digger cannot propose to a suspended client", async () => {
    const lead = await zonedLead();
    const proposal = await propose(lead, [{ date: chicagoDay(3), time: "10:00" }]);
    await changeUser(app, lead.digger.id, { suspendedAt: new Date(), suspendedReason: "Spam" });
    const refused = await book(lead, proposal.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(VISIT_ANSWERS.blocked);
    expect(await db().select().from(visits).where(eq(visits.threadId, lead.threadId))).toEqual([]);

    const other = await zonedLead();
    await changeUser(app, other.client.id, { suspendedAt: new Date(), suspendedReason: "Spam" });
    const toSuspended = await post(other.digger, other.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) });
    expect(toSuspended.status).toBe(409);
    expect(await db().select().from(visitProposals).where(eq(visitProposals.threadId, other.threadId))).toEqual([]);
  });

  it("counts a booking posted without opening the thread as the client's answer: the reply guarantee refunds nothing", async () => {
    const lead = await zonedLead();
    expect((await lead.digger.client.post(`/messages/${lead.threadId}`, { intent: "send", body: "Hello, I can come and look.", js: "1" })).status).toBe(200);
    const proposal = await propose(lead, [{ date: chicagoDay(3), time: "10:00" }]);
    // The client's booking as a program sends it: to the page's data, which never runs the loader that marks it opened.
    const booked = await lead.client.client.post(`/messages/${lead.threadId}.data`, { intent: "book-visit", proposalId: proposal.id, position: "0" });
    expect(booked.status).toBe(200);
    const [thread] = await queryRows<{ opened: boolean }>(db(), sql`select client_opened_at is not null as opened from threads where id = ${lead.threadId}`);
    expect(thread!.opened).toBe(false);
    await db().execute(sql`update lead_purchases set guarantee_due_at = now() - interval '1 hour' where id = ${lead.purchaseId}`);
    await settleGuarantee(app.services, lead.purchaseId);
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId));
    expect(purchase!.guaranteeOutcome).toBe("answered");
    expect(await db().select().from(refunds).where(eq(refunds.leadPurchaseId, lead.purchaseId))).toEqual([]);
  });

  it("leaves the other side 7 days to answer a mark made at the last moment", async () => {
    const lead = await zonedLead();
    const visit = await bookedVisit(lead);
    await moveVisit(visit.id, -(7 * 24 - 1));
    const late = await post(lead.digger, lead.threadId, { intent: "mark-visit", visitId: visit.id, outcome: "client_absent" });
    expect(late.status).toBe(200);
    // Past 7 days from the window, but within 7 days of the digger's mark: the client may still answer it.
    await moveVisit(visit.id, -(7 * 24 + 2));
    const answer = await post(lead.client, lead.threadId, { intent: "mark-visit", visitId: visit.id, outcome: "digger_absent" });
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(await visitRow(visit.id)).toMatchObject({ diggerOutcome: "client_absent", clientOutcome: "digger_absent" });
    // A contradiction: neither figure counts it.
    const records = await db().select().from(visitRecords).where(eq(visitRecords.userId, lead.client.id));
    expect(records.find((row) => row.role === "client")).toMatchObject({ kept: 0, counted: 0 });
  });

  it(`takes at most ${VISIT_PROPOSALS_PER_DAY} proposals a day in one thread: each one e-mails the client`, async () => {
    const lead = await zonedLead();
    for (let n = 0; n < VISIT_PROPOSALS_PER_DAY; n++) await propose(lead, [{ date: chicagoDay(3), time: `1${n}:00` }]);
    const more = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(4), time: "10:00" }]) });
    expect(more.status).toBe(429);
    expect(more.body).toContain(VISIT_ANSWERS.proposalsPerDay);
    const [count] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from visit_proposals where thread_id = ${lead.threadId}`);
    expect(count!.n).toBe(VISIT_PROPOSALS_PER_DAY);
  });

  it("counts a proposal against the sender's message limits: refused with the messages' answer when the minute's 30 are spent", async () => {
    const lead = await zonedLead();
    for (let n = 0; n < 30; n++) await sendMessage(app.services, lead.digger.id, lead.threadId, { body: `Message ${n}` });
    const refused = await post(lead.digger, lead.threadId, { intent: "propose-visit", ...optionFields([{ date: chicagoDay(3), time: "10:00" }]) });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain(MESSAGE_TEXTS.tooFast);
    expect(await db().select().from(visitProposals).where(eq(visitProposals.threadId, lead.threadId))).toEqual([]);
  });
});

describe("visits in the privacy rights", () => {
  it("exports each thread's proposals and visits to its party, and the purge of a deleted account blanks its notes and reasons", async () => {
    const lead = await zonedLead();
    const proposal = await propose(lead, [{ date: chicagoDay(3), time: "10:00" }], "Gate code 4411");
    expect((await book(lead, proposal.id)).status).toBe(200);
    const [visit] = await db().select().from(visits).where(eq(visits.proposalId, proposal.id));
    expect((await post(lead.digger, lead.threadId, { intent: "cancel-visit", visitId: visit!.id, reason: "My van broke down" })).status).toBe(200);

    const [thread] = (await exportedThreads(db(), lead.client.id)).filter((row) => row.id === lead.threadId);
    expect(thread!.visitProposals).toEqual([expect.objectContaining({ status: "booked", note: "Gate code 4411", timeZone: CHICAGO })]);
    expect(thread!.visits).toEqual([expect.objectContaining({ status: "cancelled", cancelledBy: "the other party", cancelReason: "My van broke down" })]);

    await db().transaction((tx) => purgeMessagesOf(tx, lead.digger.id));
    expect((await db().select().from(visitProposals).where(eq(visitProposals.id, proposal.id)))[0]!.note).toBeNull();
    expect(await visitRow(visit!.id)).toMatchObject({ status: "cancelled", cancelReason: null, cancelledBy: "digger" });
  });
});
