/**
 * A site visit's e-mails and their calendar invitation (issue 50; docs/decisions/0076-site-visits.md):
 * each party's copy, parsed back with ical.js: METHOD, one VEVENT, its UID for the visit's whole
 * life, SEQUENCE raised by a move and by the cancellation, ORGANIZER the site, the reader an
 * ATTENDEE at their own address and the other party at the thread's reply address signed for the
 * reader, and the instants of DTSTART and DTEND in UTC on the days the clocks change (Chicago's
 * 2027-03-14 and 2027-11-07), read in each party's zone in the e-mail. Delivered over real SMTP
 * it is a text/calendar; method=REQUEST part; the outbox keeps it and /dev/mail shows it as text.
 * What users wrote stays text in the HTML, the plain text and the .ics.
 */
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { wallClockInstant } from "../../core/dates.ts";
import { diggerProfiles, gigs, notifications, type emails } from "../../server/db/schema.ts";
import { replyRecipient } from "../../server/mail/reply-address.ts";
import { readerTime } from "../../server/reader-time.ts";
import { visitFacts } from "../../server/conversations/visits/visit-facts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, insertGig, mailTo, type BoughtLead } from "../support/leads.ts";
import { startSmtpServer } from "../support/smtp.ts";
import { bookVisitRows, cancelVisitRows, moveVisitRows, proposeVisitRows, setZones } from "../support/visit-rows.ts";

const CHICAGO = "America/Chicago";
const LOS_ANGELES = "America/Los_Angeles";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** A lead whose digger reads in Chicago and whose client reads in Los Angeles. */
async function leadInTwoZones(on: Parameters<typeof boughtLead>[1] = {}): Promise<BoughtLead & { handle: string }> {
  const lead = await boughtLead(app, on);
  await setZones(app, { [lead.digger.id]: CHICAGO, [lead.client.id]: LOS_ANGELES });
  const [profile] = await app.database.db.select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, lead.digger.diggerId));
  return { ...lead, handle: profile!.handle };
}

/** The instant a Chicago wall clock shows. */
const chicago = (day: string, time: string) => wallClockInstant(day, time, CHICAGO)!;

type EmailRow = typeof emails.$inferSelect;
/** The one e-mail to `address` whose subject starts with `subject`. */
async function mailOf(address: string, subject: string): Promise<EmailRow> {
  const found = (await mailTo(app, address)).filter((row) => row.subject.startsWith(subject));
  expect(found.map((row) => row.subject)).toHaveLength(1);
  return found[0]!;
}

/** An invitation read back: its METHOD, its one event, and the event's properties. */
function parsed(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents("vevent");
  expect(events).toHaveLength(1);
  const vevent = events[0]!;
  const event = new ICAL.Event(vevent);
  const attendees = vevent.getAllProperties("attendee").map((p) => ({ cn: String(p.getParameter("cn")), address: String(p.getFirstValue()).replace(/^mailto:/i, "") }));
  const organizer = vevent.getFirstProperty("organizer")!;
  const dtstart = vevent.getFirstProperty("dtstart")!;
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.uid,
    sequence: event.sequence,
    status: vevent.getFirstPropertyValue("status"),
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    startIsUtc: event.startDate.zone?.tzid === "UTC" && dtstart.getParameter("tzid") === undefined,
    summary: event.summary,
    location: event.location,
    description: event.description,
    organizer: { cn: String(organizer.getParameter("cn")), address: String(organizer.getFirstValue()).replace(/^mailto:/i, "") },
    attendees,
  };
}

/** An iCalendar text's lines, whatever its line ends. */
const lines = (text: string) => text.split(/\r?\n/).filter(Boolean);

const calendarOf = (row: EmailRow) => {
  expect(row.calendar).toBeTruthy();
  const ics = parsed(row.calendar!);
  // The outbox's METHOD (the text/calendar part's method=) is the invitation's own.
  expect(row.calendarMethod).toBe(ics.method);
  return ics;
};

describe("the booking's invitation, one copy per party", () => {
  it("on the day Chicago springs forward: the instants in UTC, each party's e-mail in their zone, the other party at the thread's reply address", async () => {
    const lead = await leadInTwoZones();
    // 10:00 on 2027-03-14 in Chicago is after the clocks went forward at 2:00: CDT, UTC-5.
    const startsAt = chicago("2027-03-14", "10:00");
    expect(startsAt.toISOString()).toBe("2027-03-14T15:00:00.000Z");
    const visit = await bookVisitRows(app, lead, { startsAt, windowMinutes: 120 });

    const digger = await mailOf(lead.digger.email, "Visit booked: ");
    const client = await mailOf(lead.client.email, "Visit booked: ");
    // Each reads the window in their own zone: 10 to noon CDT in Chicago, 8 to 10 PDT in Los Angeles (also sprung forward that night).
    expect(digger.subject).toBe(`Visit booked: ${readerTime(CHICAGO, app.config).visitWindow(startsAt, 120)}`);
    expect(digger.subject).toMatch(/Sun, Mar 14, (2027, )?10:00 AM – 12:00 PM CDT$/);
    expect(client.subject).toBe(`Visit booked: ${readerTime(LOS_ANGELES, app.config).visitWindow(startsAt, 120)}`);
    expect(client.subject).toMatch(/Sun, Mar 14, (2027, )?8:00 – 10:00 AM PDT$/);

    const host = new URL(app.config.publicUrl).hostname;
    for (const [row, reader, other, readerName, otherName] of [
      [digger, lead.digger, lead.client, lead.handle, "Clara"],
      [client, lead.client, lead.digger, "Clara", lead.handle],
    ] as const) {
      const ics = calendarOf(row);
      expect(ics).toMatchObject({ method: "REQUEST", uid: `${visit.id}@${host}`, sequence: 0, status: "CONFIRMED", summary: `Visit: ${lead.gig.title}`, location: lead.gig.location });
      expect(row.calendar).toContain("METHOD:REQUEST");
      expect(ics.start).toBe("2027-03-14T15:00:00.000Z");
      expect(ics.end).toBe("2027-03-14T17:00:00.000Z");
      expect(ics.startIsUtc).toBe(true);
      expect(row.calendar).toMatch(/^DTSTART:20270314T150000Z\r$/m);
      expect(row.calendar).not.toMatch(/TZID/);
      expect(ics.description).toContain(`${app.config.publicUrl}/messages/${lead.threadId}`);
      expect(ics.organizer).toEqual({ cn: "Digs & Gigs", address: "no-reply@digsandgigs.local" });
      // The reader at their own address; the other party under their name at the thread's reply address, signed for the reader.
      expect(ics.attendees).toHaveLength(2);
      const own = ics.attendees.find((a) => a.cn === readerName)!;
      const theirs = ics.attendees.find((a) => a.cn === otherName)!;
      expect(own.address).toBe(reader.email);
      expect(theirs.address).toMatch(/^reply\+[0-9a-f]+@reply\.localhost$/);
      expect(await replyRecipient(app.database.db, app.config.authSecret, app.config.inbound!.domain, theirs.address)).toMatchObject({ threadId: lead.threadId, userId: reader.id });
      // The other party's own address is nowhere in this copy (nor in its e-mail).
      expect(row.calendar).not.toContain(other.email);
      expect(`${row.textBody}${row.htmlBody}`).not.toContain(other.email);
    }

    // 'Add to Google Calendar': the same instants in UTC, the title and the location as values.
    const google = /Add to Google Calendar: (\S+)/.exec(client.textBody)![1]!;
    const url = new URL(google);
    expect(`${url.origin}${url.pathname}`).toBe("https://calendar.google.com/calendar/render");
    expect(url.searchParams.get("action")).toBe("TEMPLATE");
    expect(url.searchParams.get("dates")).toBe("20270314T150000Z/20270314T170000Z");
    expect(url.searchParams.get("text")).toBe(`Visit: ${lead.gig.title}`);
    expect(url.searchParams.get("location")).toBe(lead.gig.location);
    expect(url.searchParams.get("details")).toContain(`/messages/${lead.threadId}`);
    expect(decodeHtml(client.htmlBody!)).toContain(`href="${google}"`);
    // The bell tells both too.
    const bells = await app.database.db.select().from(notifications).where(eq(notifications.link, `/messages/${lead.threadId}`));
    expect(bells.map((b) => b.userId).sort()).toEqual([lead.client.id, lead.digger.id].sort());
  });

  it("on the night Chicago falls back: 1:30 AM is the first one (CDT), an exact time is an hour, and Los Angeles reads it the evening before", async () => {
    const lead = await leadInTwoZones();
    const startsAt = chicago("2027-11-07", "01:30");
    expect(startsAt.toISOString()).toBe("2027-11-07T06:30:00.000Z");
    await bookVisitRows(app, lead, { startsAt, windowMinutes: 0 });
    const digger = await mailOf(lead.digger.email, "Visit booked: ");
    const client = await mailOf(lead.client.email, "Visit booked: ");
    expect(digger.subject).toMatch(/Sun, Nov 7, (2027, )?1:30 AM CDT$/);
    expect(client.subject).toMatch(/Sat, Nov 6, (2027, )?11:30 PM PDT$/);
    for (const row of [digger, client]) {
      const ics = calendarOf(row);
      expect(ics.start).toBe("2027-11-07T06:30:00.000Z");
      expect(ics.end).toBe("2027-11-07T07:30:00.000Z");
      expect(ics.startIsUtc).toBe(true);
    }
  });

  it("a move keeps the UID with a higher SEQUENCE (METHOD:REQUEST, 'Visit moved'); the cancellation is METHOD:CANCEL to the other party and to the canceller", async () => {
    const lead = await leadInTwoZones();
    const booked = await bookVisitRows(app, lead, { startsAt: chicago("2027-03-13", "09:00"), windowMinutes: 60 });
    const first = calendarOf(await mailOf(lead.client.email, "Visit booked: "));
    const moved = await moveVisitRows(app, lead, booked, { startsAt: chicago("2027-03-15", "14:00"), windowMinutes: 240 });
    expect(moved.sequence).toBe(1);
    const movedMail = await mailOf(lead.client.email, "Visit moved: ");
    expect(movedMail.subject).toMatch(/Mon, Mar 15, (2027, )?12:00 – 4:00 PM PDT$/);
    const second = calendarOf(movedMail);
    expect(second).toMatchObject({ method: "REQUEST", uid: first.uid, sequence: 1, start: "2027-03-15T19:00:00.000Z", end: "2027-03-15T23:00:00.000Z" });
    expect(calendarOf(await mailOf(lead.digger.email, "Visit moved: "))).toMatchObject({ uid: first.uid, sequence: 1 });

    await cancelVisitRows(app, booked.id, "client", "The basement flooded, sorry");
    const told = await mailOf(lead.digger.email, "Visit cancelled: ");
    expect(told.subject).toMatch(/Mon, Mar 15, (2027, )?2:00 – 6:00 PM CDT$/);
    expect(told.textBody).toContain("Clara cancelled your visit");
    expect(told.textBody).toContain("The basement flooded, sorry");
    expect(told.textBody).not.toContain("Late cancellation");
    const cancel = calendarOf(told);
    expect(cancel).toMatchObject({ method: "CANCEL", uid: first.uid, sequence: 2, status: "CANCELLED", start: "2027-03-15T19:00:00.000Z" });
    expect(told.calendar).toContain("METHOD:CANCEL");
    // The canceller's own calendar drops it too.
    const copy = await mailOf(lead.client.email, "You cancelled the visit: ");
    expect(calendarOf(copy)).toMatchObject({ method: "CANCEL", uid: first.uid, sequence: 2, status: "CANCELLED" });
    expect(copy.textBody).toContain(`We told ${lead.handle}.`);
    // No copy told the canceller as if the other had cancelled.
    expect((await mailTo(app, lead.client.email)).filter((row) => row.subject.startsWith("Visit cancelled: "))).toHaveLength(0);
  });

  it("a late cancellation says so; the system's cancellation tells both with METHOD:CANCEL and no canceller's copy", async () => {
    const lead = await leadInTwoZones();
    const soon = await bookVisitRows(app, lead, { startsAt: new Date(Date.now() + 5 * 3600_000), windowMinutes: 60 });
    await cancelVisitRows(app, soon.id, "digger", "My van broke down");
    const late = await mailOf(lead.client.email, "Visit cancelled: ");
    expect(late.textBody).toContain(`${lead.handle} cancelled your visit`);
    expect(late.textBody).toContain("Late cancellation: less than 24 hours before the window.");
    expect(calendarOf(late).method).toBe("CANCEL");

    const other = await leadInTwoZones();
    const visit = await bookVisitRows(app, other, { startsAt: chicago("2027-01-20", "08:00"), windowMinutes: 120 });
    await cancelVisitRows(app, visit.id, "system", null);
    for (const address of [other.digger.email, other.client.email]) {
      const row = await mailOf(address, "Visit cancelled: ");
      expect(row.textBody).toContain("was cancelled by Digs & Gigs");
      expect(calendarOf(row)).toMatchObject({ method: "CANCEL", sequence: 1, status: "CANCELLED" });
      expect((await mailTo(app, address)).filter((r) => r.subject.startsWith("You cancelled"))).toHaveLength(0);
    }
  });
});

describe("the other visit e-mails", () => {
  it("proposed times go to the client in their zone, with the digger's note as text; other times, a change and a mark go to the other side", async () => {
    const lead = await leadInTwoZones();
    await proposeVisitRows(
      app,
      lead,
      [
        { startsAt: chicago("2027-03-14", "10:00"), windowMinutes: 120 },
        { startsAt: chicago("2027-03-16", "07:00"), windowMinutes: 0 },
      ],
      { note: "Ring twice <b>please</b>" },
    );
    const proposed = await mailOf(lead.client.email, `${lead.handle} proposed times for a visit about`);
    expect(proposed.textBody).toMatch(/Time 1: Sun, Mar 14, (2027, )?8:00 – 10:00 AM PDT/);
    expect(proposed.textBody).toMatch(/Time 2: Tue, Mar 16, (2027, )?5:00 AM PDT/);
    expect(proposed.textBody).toContain("Ring twice <b>please</b>");
    expect(proposed.htmlBody).toContain("Ring twice &lt;b&gt;please&lt;/b&gt;");
    expect(proposed.calendar).toBeNull();
    expect(proposed.textBody).toContain(`Choose a time: ${app.config.publicUrl}/messages/${lead.threadId}`);

    const facts = await app.database.db.transaction((tx) => visitFacts(tx, lead.threadId));
    const visit = await bookVisitRows(app, lead, { startsAt: chicago("2027-03-14", "10:00"), windowMinutes: 120 });
    await app.services.emit(app.database.db, { kind: "visit.other-times-asked", ...facts, proposalId: visit.proposalId });
    expect((await mailOf(lead.digger.email, "Clara asked for other times for a visit about")).textBody).toContain("propose new times");
    await app.services.emit(app.database.db, { kind: "visit.change-requested", ...facts, visitId: visit.id, sequence: 0, startsAt: visit.startsAt.toISOString(), windowMinutes: 120 });
    expect((await mailOf(lead.digger.email, "Clara needs to change the visit for")).textBody).toMatch(/booked for Sun, Mar 14, (2027, )?10:00 AM – 12:00 PM CDT/);
    await app.services.emit(app.database.db, { kind: "visit.marked", ...facts, visitId: visit.id, outcome: "client_absent" });
    expect(await mailOf(lead.client.email, `${lead.handle} says you were not there for the visit about`)).toBeTruthy();
    await app.services.emit(app.database.db, { kind: "visit.marked", ...facts, visitId: visit.id, outcome: "digger_absent" });
    expect(await mailOf(lead.digger.email, "Clara says you did not come to the visit for")).toBeTruthy();
  });
});

describe("what users wrote stays text", () => {
  it("a gig title with an address, a location with a line break and a reason with markup: text in the HTML, the plain text and the .ics", async () => {
    const client = (await boughtLead(app)).client;
    const title = "Fix my deck https://evil.example/x now";
    const location = "12 Elm St\r\nATTENDEE;CN=Evil:mailto:evil@evil.example";
    const gig = await insertGig(app, client.id, { title, location });
    const lead = await leadInTwoZones({ client, gig });
    const visit = await bookVisitRows(app, lead, { startsAt: chicago("2027-02-02", "09:00"), windowMinutes: 60 });
    const booked = await mailOf(lead.client.email, "Visit booked: ");
    const ics = calendarOf(booked);
    expect(ics.summary).toBe(`Visit: ${title}`);
    // The line break is the location's own, inside its value: no third attendee.
    expect(ics.location).toBe(location.replace("\r\n", "\n"));
    expect(ics.attendees).toHaveLength(2);
    expect(ics.attendees.map((a) => a.address)).not.toContain("evil@evil.example");
    expect(booked.calendar).not.toMatch(/^ATTENDEE;CN=Evil/m);
    // No anchor of the user's address in the HTML; in the text its line is indented (only actions start a line with a link).
    expect(booked.htmlBody).not.toContain('href="https://evil.example');
    expect(booked.textBody).toMatch(/^ {2}Your visit with .* "Fix my deck https:\/\/evil\.example\/x now" is booked\.$/m);
    expect(booked.textBody).not.toMatch(/^https:\/\/evil\.example/m);

    const reason = '<b>Sorry</b> <a href="https://evil.example/steal">see</a>';
    await cancelVisitRows(app, visit.id, "client", reason);
    const cancelled = await mailOf(lead.digger.email, "Visit cancelled: ");
    expect(cancelled.textBody).toContain(reason);
    expect(cancelled.htmlBody).toContain("&lt;b&gt;Sorry&lt;/b&gt;");
    expect(cancelled.htmlBody).not.toContain("<b>Sorry</b>");
    expect(cancelled.htmlBody).not.toContain('href="https://evil.example');
    // The reason is not in the .ics at all; the title is text there.
    expect(cancelled.calendar).not.toContain("Sorry");
    expect(calendarOf(cancelled).summary).toBe(`Visit: ${title}`);
    const [stored] = await app.database.db.select({ title: gigs.title }).from(gigs).where(eq(gigs.id, gig.id));
    expect(stored!.title).toBe(title);
  });
});

describe("the invitation delivered", () => {
  it("over real SMTP: a text/calendar; method=REQUEST part the calendar apps offer to add; the outbox keeps it; /dev/mail shows it as text", async () => {
    const smtp = await startSmtpServer();
    const mailing = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const lead = await boughtLead(mailing);
      const title = "Rebuild <script>alert(1)</script> steps";
      await mailing.database.db.update(gigs).set({ title }).where(eq(gigs.id, lead.gig.id));
      const startsAt = chicago("2027-03-14", "10:00");
      const visit = await bookVisitRows(mailing, lead, { startsAt, windowMinutes: 120 });
      const invitation = () => smtp.messages.filter((m) => m.envelope.to.includes(lead.client.email) && m.parsed.subject?.startsWith("Visit booked: "));
      await vi.waitFor(() => expect(invitation()).toHaveLength(1), { timeout: 15_000 });
      const message = invitation()[0]!;
      const raw = message.raw.toString("utf8");
      expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
      expect(raw).toMatch(/Content-Type: multipart\/alternative/i);
      // The calendar part read back from the raw message: its own MIME part, decoded.
      const calendarPart = message.parsed.attachments.find((a) => a.mimeType === "text/calendar");
      expect(calendarPart).toBeDefined();
      const content = typeof calendarPart!.content === "string" ? calendarPart!.content : new TextDecoder().decode(calendarPart!.content);
      const ics = parsed(content);
      expect(ics).toMatchObject({ method: "REQUEST", uid: `${visit.id}@localhost`, sequence: 0, start: "2027-03-14T15:00:00.000Z", summary: `Visit: ${title}` });
      expect(message.parsed.subject).toMatch(/^Visit booked: /);

      // The outbox row keeps the part it sent.
      await vi.waitFor(async () => {
        const [row] = (await mailTo(mailing, lead.client.email)).filter((r) => r.subject.startsWith("Visit booked: "));
        expect(row).toMatchObject({ status: "sent", calendarMethod: "REQUEST" });
        expect(lines(row!.calendar!)).toEqual(lines(content));
      });

      // /dev/mail: the invitation's text under the e-mail, never as markup.
      const page = await (await mailing.request(`/dev/mail?to=${encodeURIComponent(lead.client.email)}`)).text();
      expect(page).toContain("Calendar invitation (METHOD:REQUEST)");
      expect(page).toContain("BEGIN:VCALENDAR");
      expect(page).toContain(`UID:${visit.id}@localhost`);
      expect(page).toContain("Visit: Rebuild &lt;script&gt;alert(1)&lt;/script&gt; steps");
      expect(page).not.toContain("<script>alert(1)");
    } finally {
      await mailing.close();
      await smtp.stop();
    }
  });
});
