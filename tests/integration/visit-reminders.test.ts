/**
 * A booked visit's reminders (issue 50; docs/decisions/0076-site-visits.md, "Reminders"), through
 * the real app, its job queue and a local push service: the rows the trigger keeps and the
 * `visit.remind` jobs "visit.booked" starts for their due times; a move replaces them and the old
 * job sends nothing, a cancellation drops them; each reminder goes exactly once (two claims at
 * once, the job and the sweep), to both parties in their zone, by How to reach me's 'Visits' row
 * (e-mail and push apart); the client's 24-hour reminder alone carries the signed Confirm and
 * Need to change links.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../server/db/client.ts";
import { notifications, reachPreferences, visitReminders } from "../../server/db/schema.ts";
import { sendVisitReminder, sweepDueVisitReminders } from "../../server/conversations/visits/send-reminder.ts";
import { verifyVisitAnswerToken } from "../../server/mail/visit-answer-token.ts";
import { readerTime } from "../../server/reader-time.ts";
import type { TestApp } from "../support/app.ts";
import { jobsSettled } from "../support/jobs.ts";
import { boughtLead, mailTo, type BoughtLead } from "../support/leads.ts";
import { pushTestAppOfThisFile } from "../support/push-app.ts";
import { bookVisitRows, cancelVisitRows, moveVisitRows, setZones, visitRow } from "../support/visit-rows.ts";

const pushing = pushTestAppOfThisFile();
const { deviceOf } = pushing;
/** The reminders' pushes a device received (a booking is pushed too: 'Visits', its bell line). */
const remindersPushed = (device: Parameters<typeof pushing.receivedBy>[0]) =>
  pushing.receivedBy(device).filter((p) => p.message.title === "Reminder: your visit" || p.message.title === "Your visit starts soon");
let app: TestApp;
beforeAll(() => void ({ app } = pushing));
const db = () => app.database.db;

const HOUR = 3600_000;
const CHICAGO = "America/Chicago";
const LOS_ANGELES = "America/Los_Angeles";
/** A start this far ahead, to the second (the trigger writes a reminder only while it is ahead). */
const ahead = (ms: number) => new Date(Math.floor((Date.now() + ms) / 1000) * 1000);

async function leadInTwoZones(): Promise<BoughtLead> {
  const lead = await boughtLead(app);
  await setZones(app, { [lead.digger.id]: CHICAGO, [lead.client.id]: LOS_ANGELES });
  return lead;
}

interface ReminderRow {
  kind: "day" | "hours";
  dueAt: string;
  due: string;
  sent: boolean;
}
/** The visit's reminder rows, with each due time as the jobs carry it (to the microsecond, UTC). */
const remindersOf = (visitId: string) =>
  queryRows<ReminderRow>(
    db(),
    sql`select kind, to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "dueAt", due_at as due, sent_at is not null as sent
        from visit_reminders where visit_id = ${visitId} order by kind`,
  );

interface RemindJob {
  kind: string;
  dueAt: string;
  state: string;
  startAfter: string;
}
/** The visit's `visit.remind` jobs, oldest first. */
const jobsOf = (visitId: string) =>
  queryRows<RemindJob>(
    db(),
    sql`select data->>'kind' as kind, data->>'dueAt' as "dueAt", state::text as state, start_after as "startAfter"
        from pgboss.job where name = 'visit.remind' and data->>'visitId' = ${visitId} order by created_on, data->>'kind'`,
  );

/** The reminders that reached `address` (e-mail), by subject. */
const reminderMail = async (address: string) =>
  (await mailTo(app, address)).filter((m) => m.subject.startsWith("Reminder: your visit is on ") || m.subject.startsWith("Your visit starts soon: "));

/** Moves a reminder's due time into the past behind the trigger's back (a server that was down), answering its new due text. */
async function makeOverdue(visitId: string, kind: "day" | "hours", minutes: number): Promise<string> {
  await db()
    .update(visitReminders)
    .set({ dueAt: sql`now() - make_interval(mins => ${minutes})` })
    .where(and(eq(visitReminders.visitId, visitId), eq(visitReminders.kind, kind)));
  return (await remindersOf(visitId)).find((r) => r.kind === kind)!.dueAt;
}

describe("scheduled with the booking", () => {
  it("writes the two reminders and starts a job for each at its due time; a move replaces them (the old job sends nothing); a cancellation drops them", async () => {
    const lead = await leadInTwoZones();
    const startsAt = ahead(3 * 24 * HOUR);
    const visit = await bookVisitRows(app, lead, { startsAt, windowMinutes: 120 });
    const rows = await remindersOf(visit.id);
    expect(rows.map((r) => [r.kind, new Date(r.due).getTime(), r.sent])).toEqual([
      ["day", startsAt.getTime() - 24 * HOUR, false],
      ["hours", startsAt.getTime() - 2 * HOUR, false],
    ]);
    const jobs = await jobsOf(visit.id);
    expect(jobs.map((j) => [j.kind, j.dueAt, j.state])).toEqual(rows.map((r) => [r.kind, r.dueAt, "created"]));
    for (const [i, job] of jobs.entries()) expect(Math.abs(new Date(job.startAfter).getTime() - new Date(rows[i]!.due).getTime())).toBeLessThan(3000);

    // Moved: the rows follow the visit, and new jobs start for the new times.
    const later = ahead(4 * 24 * HOUR);
    await moveVisitRows(app, lead, visit, { startsAt: later, windowMinutes: 60 });
    const moved = await remindersOf(visit.id);
    expect(moved.map((r) => [r.kind, new Date(r.due).getTime(), r.sent])).toEqual([
      ["day", later.getTime() - 24 * HOUR, false],
      ["hours", later.getTime() - 2 * HOUR, false],
    ]);
    expect((await jobsOf(visit.id)).map((j) => [j.kind, j.dueAt])).toEqual([...jobs.map((j) => [j.kind, j.dueAt]), ...moved.map((r) => [r.kind, r.dueAt])]);
    // The old jobs, run now, find no reminder at their time: nothing is claimed or sent.
    for (const job of jobs) expect(await sendVisitReminder(app.services, visit.id, job.kind as "day" | "hours", job.dueAt)).toBeNull();
    expect((await remindersOf(visit.id)).every((r) => !r.sent)).toBe(true);

    // Cancelled: the rows go, and every job of the visit finds nothing.
    await cancelVisitRows(app, visit.id, "digger", "Something came up");
    expect(await remindersOf(visit.id)).toEqual([]);
    for (const job of await jobsOf(visit.id)) expect(await sendVisitReminder(app.services, visit.id, job.kind as "day" | "hours", job.dueAt)).toBeNull();
    expect(await reminderMail(lead.client.email)).toEqual([]);
    expect(await reminderMail(lead.digger.email)).toEqual([]);
  });

  it("a visit moved before its reminder's time: the old job runs at the old time on the queue and sends nothing", async () => {
    const lead = await leadInTwoZones();
    const visit = await bookVisitRows(app, lead, { startsAt: ahead(24 * HOUR + 3000), windowMinutes: 60 });
    const [oldDay] = await jobsOf(visit.id);
    expect(oldDay).toMatchObject({ kind: "day", state: "created" });
    await moveVisitRows(app, lead, visit, { startsAt: ahead(5 * 24 * HOUR), windowMinutes: 60 });
    // Its time comes: the queue runs it.
    await vi.waitFor(async () => expect((await jobsOf(visit.id))[0]!.state).toBe("completed"), { timeout: 20_000 });
    expect(await reminderMail(lead.client.email)).toEqual([]);
    expect(await reminderMail(lead.digger.email)).toEqual([]);
    expect((await remindersOf(visit.id)).every((r) => !r.sent)).toBe(true);
  });
});

describe("sent at its time", () => {
  it("the 24-hour reminder reaches both by e-mail, bell and push, each in their zone; only the client's carries the signed Confirm and Need to change", async () => {
    const lead = await leadInTwoZones();
    const [clientPhone, diggerPhone] = [await deviceOf(lead.client), await deviceOf(lead.digger)];
    const startsAt = ahead(24 * HOUR + 3000);
    const visit = await bookVisitRows(app, lead, { startsAt, windowMinutes: 120 });
    await vi.waitFor(async () => expect(await reminderMail(lead.client.email)).toHaveLength(1), { timeout: 20_000 });
    await vi.waitFor(async () => expect(await reminderMail(lead.digger.email)).toHaveLength(1), { timeout: 5_000 });
    const [client] = await reminderMail(lead.client.email);
    const [digger] = await reminderMail(lead.digger.email);
    expect(client!.subject).toBe(`Reminder: your visit is on ${readerTime(LOS_ANGELES, app.config).visitWindow(startsAt, 120)}`);
    expect(digger!.subject).toBe(`Reminder: your visit is on ${readerTime(CHICAGO, app.config).visitWindow(startsAt, 120)}`);
    expect(client!.textBody).toContain(`Where: ${lead.gig.location}`);

    // The client's two signed links: this visit as it stands, usable without signing in.
    const links = [...client!.textBody.matchAll(/^(Confirm|Need to change): (\S+)$/gm)].map((m) => [m[1], new URL(m[2]!)] as const);
    expect(links.map(([label, url]) => [label, url.pathname, url.searchParams.get("answer")])).toEqual([
      ["Confirm", "/visit-reply", "confirm"],
      ["Need to change", "/visit-reply", "change"],
    ]);
    for (const [, url] of links) expect(verifyVisitAnswerToken(app.config.authSecret, url.searchParams.get("token")!, visit)).toBe(true);
    expect(client!.htmlBody).toMatch(/<a [^>]*href="http:\/\/localhost:3000\/visit-reply\?token=[^"]+&amp;answer=confirm"[^>]*>Confirm<\/a>/);
    expect(digger!.textBody).not.toContain("/visit-reply");
    expect(digger!.htmlBody).not.toContain("/visit-reply");

    // Sent once, marked; the 2-hour one waits for its own time.
    expect((await remindersOf(visit.id)).map((r) => [r.kind, r.sent])).toEqual([
      ["day", true],
      ["hours", false],
    ]);
    const bells = await db().select().from(notifications).where(and(eq(notifications.kind, "visit.reminder"), eq(notifications.link, `/messages/${lead.threadId}`)));
    expect(bells.map((b) => b.userId).sort()).toEqual([lead.client.id, lead.digger.id].sort());
    await jobsSettled(db(), "push.send");
    await vi.waitFor(() => expect(remindersPushed(clientPhone)).toHaveLength(1), { timeout: 10_000 });
    expect(remindersPushed(clientPhone)[0]!.message).toEqual({
      title: "Reminder: your visit",
      body: `${readerTime(LOS_ANGELES, app.config).visitWindow(startsAt, 120)} · ${lead.gig.title}`,
      link: `/messages/${lead.threadId}`,
    });
    await vi.waitFor(() => expect(remindersPushed(diggerPhone)).toHaveLength(1), { timeout: 10_000 });
    expect(remindersPushed(diggerPhone)[0]!.message.title).toBe("Reminder: your visit");
  });

  it("the 2-hour reminder: 'Your visit starts soon', without links; the digger's says the client confirmed", async () => {
    const lead = await leadInTwoZones();
    const startsAt = ahead(2 * HOUR + 3000);
    const visit = await bookVisitRows(app, lead, { startsAt, windowMinutes: 0 });
    // Too close for a 24-hour reminder: only the 2-hour one exists.
    expect((await remindersOf(visit.id)).map((r) => r.kind)).toEqual(["hours"]);
    await db().execute(sql`update visits set client_confirmed_at = now() where id = ${visit.id}`);
    await vi.waitFor(async () => expect(await reminderMail(lead.digger.email)).toHaveLength(1), { timeout: 20_000 });
    await vi.waitFor(async () => expect(await reminderMail(lead.client.email)).toHaveLength(1), { timeout: 5_000 });
    const [client] = await reminderMail(lead.client.email);
    const [digger] = await reminderMail(lead.digger.email);
    expect(client!.subject).toBe(`Your visit starts soon: ${readerTime(LOS_ANGELES, app.config).visitWindow(startsAt, 0)}`);
    expect(client!.textBody).not.toContain("/visit-reply");
    expect(client!.textBody).not.toContain("Client confirmed");
    expect(digger!.textBody).toContain("Client confirmed");
  });

  it("follows How to reach me's Visits row: E-mail off sends the push alone, Push off the e-mail alone; the bell either way", async () => {
    const lead = await leadInTwoZones();
    const [clientPhone, diggerPhone] = [await deviceOf(lead.client), await deviceOf(lead.digger)];
    await db()
      .insert(reachPreferences)
      .values([
        { userId: lead.client.id, group: "visits", email: false, push: true },
        { userId: lead.digger.id, group: "visits", email: true, push: false },
      ]);
    const visit = await bookVisitRows(app, lead, { startsAt: ahead(24 * HOUR + 3000), windowMinutes: 60 });
    await vi.waitFor(async () => expect(await reminderMail(lead.digger.email)).toHaveLength(1), { timeout: 20_000 });
    await vi.waitFor(() => expect(remindersPushed(clientPhone)).toHaveLength(1), { timeout: 10_000 });
    await jobsSettled(db(), "push.send");
    expect(remindersPushed(clientPhone)[0]!.message.title).toBe("Reminder: your visit");
    expect(await reminderMail(lead.client.email)).toEqual([]);
    // Push off for Visits: neither the booking nor the reminder reached the digger's device.
    expect(pushing.receivedBy(diggerPhone)).toEqual([]);
    expect((await remindersOf(visit.id)).find((r) => r.kind === "day")!.sent).toBe(true);
    const bells = await db().select().from(notifications).where(and(eq(notifications.kind, "visit.reminder"), eq(notifications.link, `/messages/${lead.threadId}`)));
    expect(bells.map((b) => b.userId).sort()).toEqual([lead.client.id, lead.digger.id].sort());
  });
});

describe("exactly once", () => {
  it("two claims of one reminder at once send it once; so do its job and the sweep", async () => {
    const lead = await leadInTwoZones();
    const visit = await bookVisitRows(app, lead, { startsAt: ahead(3 * 24 * HOUR), windowMinutes: 60 });
    const day = await makeOverdue(visit.id, "day", 5);
    const outcomes = await Promise.all([sendVisitReminder(app.services, visit.id, "day", day), sendVisitReminder(app.services, visit.id, "day", day)]);
    expect(outcomes.filter((o) => o === "sent")).toHaveLength(1);
    expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    expect((await reminderMail(lead.client.email)).map((m) => m.subject.slice(0, 22))).toEqual(["Reminder: your visit i"]);
    expect(await reminderMail(lead.digger.email)).toHaveLength(1);

    const hours = await makeOverdue(visit.id, "hours", 5);
    const [swept, job] = await Promise.all([sweepDueVisitReminders(app.services), sendVisitReminder(app.services, visit.id, "hours", hours)]);
    // Either may win (and the schedule's own sweep may run meanwhile): one sends, the other finds it sent.
    expect(swept + (job === "sent" ? 1 : 0)).toBeLessThanOrEqual(1);
    await vi.waitFor(async () => expect((await remindersOf(visit.id)).every((r) => r.sent)).toBe(true));
    expect((await reminderMail(lead.client.email)).map((m) => m.subject.slice(0, 22))).toEqual(["Your visit starts soon", "Reminder: your visit i"]);
    expect(await reminderMail(lead.digger.email)).toHaveLength(2);
    // Run again, each finds it sent.
    expect(await sendVisitReminder(app.services, visit.id, "hours", hours)).toBeNull();
    await sweepDueVisitReminders(app.services);
    expect(await reminderMail(lead.client.email)).toHaveLength(2);
  });

  it("the sweep sends a reminder its job missed; a 24-hour reminder found once the visit is 2 hours away is marked and says nothing", async () => {
    const lead = await leadInTwoZones();
    const missed = await bookVisitRows(app, lead, { startsAt: ahead(3 * 24 * HOUR), windowMinutes: 60 });
    await makeOverdue(missed.id, "day", 10);
    expect(await sweepDueVisitReminders(app.services)).toBeGreaterThanOrEqual(1);
    expect((await remindersOf(missed.id)).find((r) => r.kind === "day")!.sent).toBe(true);
    expect(await reminderMail(lead.client.email)).toHaveLength(1);

    const other = await leadInTwoZones();
    const soon = await bookVisitRows(app, other, { startsAt: ahead(90 * 60_000), windowMinutes: 60 });
    expect(await remindersOf(soon.id)).toEqual([]);
    // A 24-hour reminder left from a day the servers were down.
    await db().insert(visitReminders).values({ visitId: soon.id, kind: "day", dueAt: sql`now() - interval '22 hours 30 minutes'` });
    const [left] = await remindersOf(soon.id);
    expect(await sendVisitReminder(app.services, soon.id, "day", left!.dueAt)).toBe("late");
    expect((await remindersOf(soon.id))[0]!.sent).toBe(true);
    expect(await reminderMail(other.client.email)).toEqual([]);
    expect(await reminderMail(other.digger.email)).toEqual([]);
    expect((await visitRow(app, soon.id)).status).toBe("booked");
  });
});
