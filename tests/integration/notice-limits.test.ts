/**
 * Issue 30, finding 7 (decision 0034): a client repeating an event cannot flood a digger. A
 * notice goes at most once per kind, subject and recipient in 24 hours (notify's
 * notice_sends row, taken in the event's transaction), and an account posts at most 10 gigs
 * an hour and 30 a day, counted by every server alike (the rate limits in PostgreSQL).
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../server/db/client.ts";
import { pruneNoticeSends } from "../../server/events/notice-sends.ts";
import { gigs, noticeSends, notifications } from "../../server/db/schema.ts";
import { GIG_POSTS_LIMITED } from "../../server/gigs/post-gig.ts";
import { paragraph } from "../../server/mail/content.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, topLevelCategoryId, type TestDigger, type TestGig } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const REVIEW = "Great work, on time and tidy. Would hire again.";

let app: TestApp;
let categoryId: string;
beforeAll(async () => {
  app = await createTestApp();
  categoryId = await topLevelCategoryId(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const bellOf = async (userId: string, kind: string) => db().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));
const mailsOf = async (user: TestUser, subject: string) => (await mailTo(app, user.email)).filter((m) => m.subject === subject);

/** A gig of a new client, bought by a new digger. */
async function boughtLead(): Promise<{ client: TestUser; digger: TestDigger; gig: TestGig }> {
  const client = await signUpAs(app, "consumer", "Clara Client");
  const digger = await diggerWithProfile(app);
  const gig = await insertGig(app, client.id);
  await insertPurchase(app, gig, digger.diggerId);
  return { client, digger, gig };
}

const diggersDialog = (lead: { client: TestUser; gig: TestGig }, fields: Record<string, string>) => lead.client.client.post(`/my-gigs/${lead.gig.id}/diggers`, fields);
const setStatus = (lead: { client: TestUser; gig: TestGig }, status: "open" | "closed") =>
  lead.client.client.post("/my-gigs", { intent: "set-status", gigId: lead.gig.id, status, ...(status === "closed" ? { filled: "yes" } : {}) });

/** Moves every notice of `userId` back `hours`: as if they went that long ago. */
const ageNotices = (userId: string, hours: number) =>
  db()
    .update(noticeSends)
    .set({ sentAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(noticeSends.userId, userId));

describe("a notice goes once per kind, subject and recipient in 24 hours", () => {
  it("5 hire and unhire cycles send the digger 1 e-mail and 1 bell entry; a day later, the next hire is told again", async () => {
    const lead = await boughtLead();
    for (let i = 0; i < 5; i++) {
      expect((await diggersDialog(lead, { intent: "hire", diggerId: lead.digger.diggerId })).status).toBe(200);
      expect((await diggersDialog(lead, { intent: "unhire", diggerId: lead.digger.diggerId })).status).toBe(200);
    }
    const subject = `You were marked as hired for "${lead.gig.title}"`;
    expect(await mailsOf(lead.digger, subject)).toHaveLength(1);
    expect(await bellOf(lead.digger.id, "hire.marked")).toHaveLength(1);

    await ageNotices(lead.digger.id, 23);
    await diggersDialog(lead, { intent: "hire", diggerId: lead.digger.diggerId });
    expect(await mailsOf(lead.digger, subject)).toHaveLength(1);
    await diggersDialog(lead, { intent: "unhire", diggerId: lead.digger.diggerId });
    await ageNotices(lead.digger.id, 24);
    await diggersDialog(lead, { intent: "hire", diggerId: lead.digger.diggerId });
    expect(await mailsOf(lead.digger, subject)).toHaveLength(2);
    expect(await bellOf(lead.digger.id, "hire.marked")).toHaveLength(2);
  });

  it("5 close-as-filled and reopen cycles send each buyer 1 e-mail and 1 bell entry", async () => {
    const lead = await boughtLead();
    const second = await diggerWithProfile(app);
    await insertPurchase(app, lead.gig, second.diggerId);
    for (let i = 0; i < 5; i++) {
      expect((await setStatus(lead, "closed")).status).toBe(200);
      expect((await setStatus(lead, "open")).status).toBe(200);
    }
    for (const digger of [lead.digger, second]) {
      expect(await mailsOf(digger, `The gig "${lead.gig.title}" has been filled`)).toHaveLength(1);
      expect(await bellOf(digger.id, "gig.filled")).toHaveLength(1);
    }
  });

  it("a review and 5 edits send the digger 1 e-mail and 1 bell entry; the figures follow every edit", async () => {
    const lead = await boughtLead();
    expect((await diggersDialog(lead, { intent: "review", diggerId: lead.digger.diggerId, rating: "5", body: REVIEW })).status).toBe(200);
    for (const rating of ["1", "2", "3", "4", "2"]) {
      expect((await diggersDialog(lead, { intent: "edit-review", diggerId: lead.digger.diggerId, rating, body: `${REVIEW} (${rating})` })).status).toBe(200);
    }
    const mails = (await mailTo(app, lead.digger.email)).filter((m) => m.subject.includes(lead.gig.title));
    expect(mails.map((m) => m.subject)).toEqual([`New review for "${lead.gig.title}"`]);
    expect(await bellOf(lead.digger.id, "review.received")).toHaveLength(1);
    expect(decodeHtml(await (await new SessionClient(app).get(`/digger/${lead.digger.diggerId}`)).text())).toContain(`${REVIEW} (2)`);
  });

  it("another subject is another notice: a digger hired on two gigs is told of each", async () => {
    const lead = await boughtLead();
    const other = await insertGig(app, lead.client.id);
    await insertPurchase(app, other, lead.digger.diggerId);
    await diggersDialog(lead, { intent: "hire", diggerId: lead.digger.diggerId });
    await diggersDialog({ client: lead.client, gig: other }, { intent: "hire", diggerId: lead.digger.diggerId });
    expect(await bellOf(lead.digger.id, "hire.marked")).toHaveLength(2);
  });

  it("of events repeated at once, one is told (the row is taken in each event's transaction)", async () => {
    const user = await signUpAs(app, "digger");
    const subjectId = randomUUID();
    const tell = () =>
      db().transaction((tx) =>
        app.services.notify(tx, { userId: user.id, address: user.email, kind: "gig.filled", subjectId, text: "Filled", link: "/my-leads", email: { subject: "Filled", content: [paragraph("Filled.")] } }),
      );
    const sent = await Promise.all(Array.from({ length: 5 }, tell));
    expect(sent.filter((id) => id !== null)).toHaveLength(1);
    expect(await bellOf(user.id, "gig.filled")).toHaveLength(1);
    expect(await mailsOf(user, "Filled")).toHaveLength(1);
  });

  it("a notice whose event rolls back does not count: the next one goes", async () => {
    const user = await signUpAs(app, "digger");
    const notice = { userId: user.id, address: user.email, kind: "gig.filled" as const, subjectId: randomUUID(), text: "Filled", link: "/my-leads" };
    await expect(
      db().transaction(async (tx) => {
        await app.services.notify(tx, notice);
        throw new Error("the event failed");
      }),
    ).rejects.toThrow("the event failed");
    await db().transaction((tx) => app.services.notify(tx, notice));
    expect(await bellOf(user.id, "gig.filled")).toHaveLength(1);
  });

  it("the hourly notices.prune deletes only the notice times past the window, and the window still holds after it", async () => {
    const user = await signUpAs(app, "digger");
    const notice = (subjectId: string) => ({ userId: user.id, address: user.email, kind: "gig.filled" as const, subjectId, text: "Filled", link: "/my-leads" });
    const [old, recent] = [randomUUID(), randomUUID()];
    await db().transaction((tx) => app.services.notify(tx, notice(old)));
    await db().transaction((tx) => app.services.notify(tx, notice(recent)));
    await db().update(noticeSends).set({ sentAt: sql`now() - interval '25 hours'` }).where(and(eq(noticeSends.userId, user.id), eq(noticeSends.subjectId, old)));
    const [schedule] = await queryRows<{ cron: string }>(db(), sql`select cron from pgboss.schedule where name = 'notices.prune'`);
    expect(schedule?.cron).toBe("53 * * * *");
    // What the scheduler sends at the top of its slot.
    await app.services.jobs.send("notices.prune", {});
    const left = async () => (await db().select({ subjectId: noticeSends.subjectId }).from(noticeSends).where(eq(noticeSends.userId, user.id))).map((row) => row.subjectId);
    await expect.poll(left, { timeout: 15_000, interval: 100 }).toEqual([recent]);
    // The recent one still stops its repeat; the pruned one is told again, as it would have been.
    await db().transaction((tx) => app.services.notify(tx, notice(recent)));
    await db().transaction((tx) => app.services.notify(tx, notice(old)));
    expect(await bellOf(user.id, "gig.filled")).toHaveLength(3);
  });
});

/** `n` valid gigs posted through /post-gig, by each of `clients` in turn; their answers. */
async function postGigs(clients: SessionClient[], n: number): Promise<Response[]> {
  const answers: Response[] = [];
  for (let i = 0; i < n; i++) answers.push(await clients[i % clients.length]!.post("/post-gig", validGigForm(categoryId)));
  return answers;
}

const gigCount = async (clientId: string) => (await db().select({ id: gigs.id }).from(gigs).where(eq(gigs.clientId, clientId))).length;

describe("pruning the notice times", () => {
  it("deletes more rows than one batch holds, and counts them all", async () => {
    const user = await signUpAs(app, "digger");
    await db().execute(sql`insert into notice_sends (user_id, kind, subject_id, sent_at)
      select ${user.id}, 'gig.filled', g::text, now() - interval '25 hours' from generate_series(1, 10050) g`);
    expect(await pruneNoticeSends(db())).toBeGreaterThanOrEqual(10_050);
    expect(await db().select({ subjectId: noticeSends.subjectId }).from(noticeSends).where(eq(noticeSends.userId, user.id))).toEqual([]);
  });
});

describe("posting gigs: 10 an hour, 30 a day per account", () => {
  it("refuses the 11th gig in an hour with the message, writing nothing; another account still posts", async () => {
    const client = await signUpAs(app, "consumer");
    expect((await postGigs([client.client], 10)).map(location)).toEqual(Array(10).fill("/"));
    const form = validGigForm(categoryId);
    const refused = await client.client.post("/post-gig", form);
    expect(refused.status).toBe(429);
    expect(decodeHtml(await refused.text())).toContain(GIG_POSTS_LIMITED);
    expect(await db().select().from(gigs).where(eq(gigs.title, form.title!))).toEqual([]);
    expect(await gigCount(client.id)).toBe(10);

    const other = await signUpAs(app, "consumer");
    expect(location(await other.client.post("/post-gig", validGigForm(categoryId)))).toBe("/");
  });

  it("counts only valid gigs: a form refused for a field can be corrected and sent again", async () => {
    const client = await signUpAs(app, "consumer");
    for (let i = 0; i < 12; i++) expect((await client.client.post("/post-gig", validGigForm(categoryId, { title: "" }))).status).toBe(400);
    expect((await postGigs([client.client], 10)).map(location)).toEqual(Array(10).fill("/"));
  });

  it("refuses a gig once the day's 30 are used, though the hour has room", async () => {
    const client = await signUpAs(app, "consumer");
    // The day's count as 30 gigs posted over the last hours would leave it.
    for (let i = 0; i < 30; i++) await app.services.rateLimits.gigPostsPerDay.take(client.id);
    const refused = await client.client.post("/post-gig", validGigForm(categoryId));
    expect(refused.status).toBe(429);
    expect(decodeHtml(await refused.text())).toContain(GIG_POSTS_LIMITED);
    expect(await gigCount(client.id)).toBe(0);
  });

  describe.runIf(onPostgres)("two server instances on one PostgreSQL database", () => {
    let second: TestApp;
    beforeAll(async () => {
      second = await createTestApp({}, { database: app.database });
    });
    afterAll(() => second?.close());

    it("share the count: 10 gigs posted through either, the 11th refused by both", async () => {
      const client = await signUpAs(app, "consumer");
      const elsewhere = new SessionClient(second, client.client.ip);
      elsewhere.store(client.client.cookieHeader().split("; "));
      expect((await postGigs([client.client, elsewhere], 10)).map(location)).toEqual(Array(10).fill("/"));
      for (const through of [client.client, elsewhere]) {
        const refused = await through.post("/post-gig", validGigForm(categoryId));
        expect(refused.status).toBe(429);
        expect(decodeHtml(await refused.text())).toContain(GIG_POSTS_LIMITED);
      }
      expect(await gigCount(client.id)).toBe(10);
    });
  });
});
