/**
 * Earned trust (issue 20): the Diggers dialog of /my-gigs, hires, reviews and replies, every
 * refusal (nothing changed), the figures the database derives (also under concurrent reviews),
 * the Reviews section of /digger/{id}, and the demo seed's figures. On PGlite, or PostgreSQL
 * with TEST_DATABASE_URL (there the concurrent reviews really race for the digger's row).
 */
import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLY_MAX, TRUST_MESSAGES, type GigBuyer } from "../../core/reviews.ts";
import { queryRows } from "../../server/db/client.ts";
import { diggerProfiles, emails, hires, refunds, reviews, users } from "../../server/db/schema.ts";
import { seedCategories, seedDemoData } from "../../server/db/seed/index.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger, type TestGig } from "../support/leads.ts";
import { diggerReviewsInWindow } from "../support/review-windows.ts";
import { SessionClient } from "../support/session-client.ts";
import { someoneWaitsOnALock } from "../support/lock-waits.ts";

let app: TestApp;
let owner: TestUser;
let other: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  owner = await signUpAs(app, "consumer", "Maria Sanchez-Whitfield");
  other = await signUpAs(app, "consumer", "Oscar Otherclient");
});
afterAll(() => app.close());

const db = () => app.database.db;
const REVIEW = "Great work, on time and tidy. Would hire again.";
const post = (client: SessionClient, gig: TestGig, fields: Record<string, string>) => client.post(`/my-gigs/${gig.id}/diggers`, fields);
const answer = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error?: string; success?: string }) });
const figures = async (diggerId: string) =>
  (await db().select({ average: diggerProfiles.averageRating, total: diggerProfiles.totalRatings, completion: diggerProfiles.completionRate }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)))[0]!;
const reviewCount = async () => (await db().select({ n: count() }).from(reviews))[0]!.n;
const hireCount = async () => (await db().select({ n: count() }).from(hires))[0]!.n;
const profileHtml = async (diggerId: string, client = new SessionClient(app), query = "") => decodeHtml(await (await client.get(`/digger/${diggerId}${query}`)).text());

/** A gig of the owner bought by `digger`. */
async function boughtGig(digger: TestDigger, clientUser = owner) {
  const gig = await insertGig(app, clientUser.id);
  const purchase = await insertPurchase(app, gig, digger.diggerId);
  return { gig, purchase };
}

describe("the Diggers dialog", () => {
  it("lists each completed purchase newest first with handle, rating and date, to the gig's owner only", async () => {
    const [first, second, pending] = [await diggerWithProfile(app), await diggerWithProfile(app), await diggerWithProfile(app)];
    const gig = await insertGig(app, owner.id);
    await insertPurchase(app, gig, first.diggerId, { purchasedAt: new Date(Date.now() - 3_600_000) });
    await insertPurchase(app, gig, second.diggerId);
    await insertPurchase(app, gig, pending.diggerId, { status: "pending" });
    const response = await owner.client.get(`/my-gigs/${gig.id}/diggers`);
    expect(response.status).toBe(200);
    const body = await response.text();
    const { buyers } = JSON.parse(body) as { buyers: GigBuyer[] };
    expect(buyers.map((b) => b.diggerId)).toEqual([second.diggerId, first.diggerId]);
    expect(buyers[0]).toMatchObject({ hired: false, reviewable: true, review: null, totalRatings: 0 });
    expect(buyers[0]!.handle).toMatch(/^d_/);
    // Nothing private of the digger's: no business name, e-mail or full name.
    for (const d of [first, second]) for (const secret of [d.businessName, d.email, d.fullName]) expect(body).not.toContain(secret);

    expect(await answer(await other.client.get(`/my-gigs/${gig.id}/diggers`))).toMatchObject({ status: 403, error: TRUST_MESSAGES.notYourGig });
    expect((await first.client.get(`/my-gigs/${gig.id}/diggers`)).status).toBe(403);
    expect((await owner.client.get(`/my-gigs/${randomUUID()}/diggers`)).status).toBe(404);
    expect((await new SessionClient(app).get(`/my-gigs/${gig.id}/diggers`)).status).toBe(302);
  });
});

describe("hires", () => {
  it("marks a digger who bought the lead as hired (once per pair), e-mails them, and undoes it", async () => {
    const digger = await diggerWithProfile(app);
    const { gig } = await boughtGig(digger);
    expect(await answer(await post(owner.client, gig, { intent: "hire", diggerId: digger.diggerId }))).toMatchObject({ status: 200, success: "Marked as hired" });
    expect(await answer(await post(owner.client, gig, { intent: "hire", diggerId: digger.diggerId }))).toMatchObject({ status: 200, success: "Marked as hired" });
    expect(await db().select().from(hires).where(eq(hires.gigId, gig.id))).toHaveLength(1);
    expect((await figures(digger.diggerId)).completion).toBe(100);
    const mail = await mailTo(app, digger.email);
    expect(mail.filter((m) => m.subject === `You were marked as hired for "${gig.title}"`)).toHaveLength(1);
    expect(mail[0]!.textBody).toContain(`/digger/${digger.diggerId}`);
    expect(mail[0]!.textBody).not.toContain(owner.email);

    expect(await answer(await post(owner.client, gig, { intent: "unhire", diggerId: digger.diggerId }))).toMatchObject({ status: 200, success: "Hire removed" });
    expect(await db().select().from(hires).where(eq(hires.gigId, gig.id))).toHaveLength(0);
    expect((await figures(digger.diggerId)).completion).toBe(0);
  });

  it("refuses a hire on another client's gig (403) and of a digger without a completed purchase (409), changing nothing", async () => {
    const digger = await diggerWithProfile(app);
    const stranger = await diggerWithProfile(app);
    const { gig } = await boughtGig(digger);
    const pendingGig = await insertGig(app, owner.id);
    await insertPurchase(app, pendingGig, stranger.diggerId, { status: "pending" });
    const before = await hireCount();
    expect(await answer(await post(other.client, gig, { intent: "hire", diggerId: digger.diggerId }))).toMatchObject({ status: 403, error: TRUST_MESSAGES.notYourGig });
    expect(await answer(await post(digger.client, gig, { intent: "hire", diggerId: digger.diggerId }))).toMatchObject({ status: 403 });
    expect(await answer(await post(owner.client, gig, { intent: "hire", diggerId: stranger.diggerId }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.noPurchase });
    expect(await answer(await post(owner.client, pendingGig, { intent: "hire", diggerId: stranger.diggerId }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.noPurchase });
    expect(await answer(await post(owner.client, gig, { intent: "hire", diggerId: "not-an-id" }))).toMatchObject({ status: 409 });
    expect(await hireCount()).toBe(before);
    expect(await mailTo(app, stranger.email)).toHaveLength(0);
  });
});

describe("reviews", () => {
  it("checks the form with the issue's messages, posts a review, derives the figures, e-mails the digger, and refuses a second", async () => {
    const digger = await diggerWithProfile(app);
    const { gig } = await boughtGig(digger);
    const before = await reviewCount();
    expect(await answer(await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, body: REVIEW }))).toMatchObject({ status: 400, error: "Please choose a rating" });
    expect(await answer(await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "6", body: REVIEW }))).toMatchObject({ status: 400, error: "Please choose a rating" });
    expect(await answer(await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "4", body: "Too short.         " }))).toMatchObject({ status: 400, error: "Review must be at least 20 characters" });
    expect(await answer(await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "4", body: "x".repeat(2001) }))).toMatchObject({ status: 400 });
    expect(await reviewCount()).toBe(before);

    expect(await answer(await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "4", body: REVIEW }))).toMatchObject({ status: 200, success: "Review posted. Thank you!" });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 4, total: 1 });
    expect((await mailTo(app, digger.email)).some((m) => m.subject === `New review for "${gig.title}"` && m.textBody.includes("4 out of 5"))).toBe(true);

    expect(await answer(await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "5", body: REVIEW }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.alreadyReviewed });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 4, total: 1 });

    // Edit within 30 days: the figures follow.
    expect(await answer(await post(owner.client, gig, { intent: "edit-review", diggerId: digger.diggerId, rating: "2", body: `${REVIEW} Edited.` }))).toMatchObject({ status: 200, success: "Review updated" });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 2, total: 1 });
    // After 30 days, no more.
    await db().update(reviews).set({ createdAt: sql`now() - interval '31 days'` }).where(eq(reviews.gigId, gig.id));
    expect(await answer(await post(owner.client, gig, { intent: "edit-review", diggerId: digger.diggerId, rating: "5", body: REVIEW }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.editWindowClosed });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 2, total: 1 });
    const [buyer] = ((await (await owner.client.get(`/my-gigs/${gig.id}/diggers`)).json()) as { buyers: GigBuyer[] }).buyers;
    expect(buyer!.review).toMatchObject({ rating: 2, editable: false });
  });

  it("refuses a review of someone else's gig (403), of a digger who never bought it or whose lead was refunded in full (409), changing nothing", async () => {
    const digger = await diggerWithProfile(app);
    const stranger = await diggerWithProfile(app);
    const { gig } = await boughtGig(digger);
    const refundedGig = await insertGig(app, owner.id);
    const refunded = await insertPurchase(app, refundedGig, stranger.diggerId);
    await db().insert(refunds).values({ leadPurchaseId: refunded.id, reason: "lead_unavailable", amountCents: refunded.amountPaidCents, status: "succeeded", completedAt: new Date() });
    const fields = { intent: "review", rating: "5", body: REVIEW };
    const before = await reviewCount();
    expect(await answer(await post(other.client, gig, { ...fields, diggerId: digger.diggerId }))).toMatchObject({ status: 403, error: TRUST_MESSAGES.notYourGig });
    expect(await answer(await post(digger.client, gig, { ...fields, diggerId: digger.diggerId }))).toMatchObject({ status: 403 });
    expect(await answer(await post(owner.client, gig, { ...fields, diggerId: stranger.diggerId }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.noPurchase });
    expect(await answer(await post(owner.client, refundedGig, { ...fields, diggerId: stranger.diggerId }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.refunded });
    expect(await answer(await post(owner.client, gig, { ...fields, intent: "edit-review", diggerId: digger.diggerId }))).toMatchObject({ status: 404 });
    expect(await reviewCount()).toBe(before);
    expect(await figures(digger.diggerId)).toMatchObject({ average: 0, total: 0 });
    const [row] = ((await (await owner.client.get(`/my-gigs/${refundedGig.id}/diggers`)).json()) as { buyers: GigBuyer[] }).buyers;
    expect(row!.reviewable).toBe(false);
  });

  it("keeps the aggregate equal to the reviews when many are posted at once", async () => {
    const digger = await diggerWithProfile(app);
    const gigs = await Promise.all(Array.from({ length: 12 }, async () => (await boughtGig(digger)).gig));
    const ratings = gigs.map((_, i) => (i % 5) + 1);
    const responses = await Promise.all(gigs.map((gig, i) => post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: String(ratings[i]), body: REVIEW })));
    expect(responses.map((r) => r.status)).toEqual(gigs.map(() => 200));
    const mean = ratings.reduce((a, b) => a + b, 0) / ratings.length;
    expect(await figures(digger.diggerId)).toMatchObject({ total: 12, average: Math.round(mean * 100) / 100 });
  });

  it.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, a review written while another holds the digger's row still counts both", async () => {
    const digger = await diggerWithProfile(app);
    const [a, b] = [await boughtGig(digger), await boughtGig(digger)];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
    const first = db().transaction(async (tx) => {
      await tx.insert(reviews).values({ gigId: a.gig.id, diggerId: digger.diggerId, leadPurchaseId: a.purchase.id, rating: 5, body: REVIEW });
      inserted();
      await held;
    });
    await firstInserted;
    // Started now (a Drizzle query runs once it is awaited or `then`-ed).
    const second = db().insert(reviews).values({ gigId: b.gig.id, diggerId: digger.diggerId, leadPurchaseId: b.purchase.id, rating: 1, body: REVIEW }).then(() => undefined);
    // The second waits for the digger's row, locked by the first's trigger: commit the first only then.
    await someoneWaitsOnALock(db());
    release();
    await Promise.all([first, second]);
    expect(await figures(digger.diggerId)).toMatchObject({ total: 2, average: 3 });
  });
});

describe("the Reviews section of /digger/{id}", () => {
  it("shows 'New' and 'No reviews yet.' before any review; then count, average, breakdown, 'Maria S.', 'Verified lead', 'Hired'", async () => {
    const digger = await diggerWithProfile(app);
    let html = await profileHtml(digger.diggerId);
    expect(html).toContain("No reviews yet.");
    expect(html).toContain(">New<");
    expect(html).not.toContain("(0 reviews)");

    const hired = await boughtGig(digger);
    const notHired = await boughtGig(digger, other);
    await post(owner.client, hired.gig, { intent: "hire", diggerId: digger.diggerId });
    // A hire's reviews are blind until both sides have written (issue 51): the digger's review of Maria came first.
    await diggerReviewsInWindow(app, { gigId: hired.gig.id, diggerId: digger.diggerId, clientId: owner.id, leadPurchaseId: hired.purchase.id, rating: 5, body: "Clear brief, paid on the day, easy to reach." });
    await post(owner.client, hired.gig, { intent: "review", diggerId: digger.diggerId, rating: "5", body: "Maria's review: the new fence is perfect." });
    await post(other.client, notHired.gig, { intent: "review", diggerId: digger.diggerId, rating: "4", body: "Oscar's review: decent work on the shed." });
    // A visitor, the digger and the other reviewer (the owner's own name is in their own header).
    for (const client of [new SessionClient(app), digger.client, other.client]) {
      html = await profileHtml(digger.diggerId, client);
      expect(html).toContain("4.5");
      expect(html).toContain("2 reviews");
      expect(html).toContain("Maria S.");
      expect(html).toContain("Oscar O.");
      expect(html.match(/Verified lead/g)).toHaveLength(2);
      expect(html.match(/>Hired</g)).toHaveLength(1);
      // Its time as the server wrote it in the reader's zone (issue 47): a list's "just now" or "5 min ago".
      expect(html).toMatch(/Maria S\.<\/span><time [^>]*>(just now|\d+ min ago)<\/time>/);
      // Never the e-mail or the full last name, in the page or its data.
      const data = await (await client.get(`/digger/${digger.diggerId}.data`)).text();
      const secrets = client === other.client ? ["Sanchez", "Whitfield", owner.email] : ["Sanchez", "Whitfield", owner.email, "Otherclient", other.email];
      for (const secret of secrets) {
        expect(html).not.toContain(secret);
        expect(data).not.toContain(secret);
      }
    }
  });

  it("no longer names a reviewer who deleted their account", async () => {
    const digger = await diggerWithProfile(app);
    const leaving = await signUpAs(app, "consumer", "Lena Leaving");
    const { gig } = await boughtGig(digger, leaving);
    await post(leaving.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "3", body: REVIEW });
    expect(await profileHtml(digger.diggerId)).toContain("Lena L.");
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, leaving.id));
    const html = await profileHtml(digger.diggerId);
    expect(html).toContain("Former client");
    expect(html).not.toContain("Lena");
  });

  it("pages the reviews 10 at a time, newest first", async () => {
    const digger = await diggerWithProfile(app);
    for (let i = 0; i < 11; i++) {
      const { gig, purchase } = await boughtGig(digger);
      await db().insert(reviews).values({ gigId: gig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, rating: 3, body: `Review number ${String(i).padStart(2, "0")} of the paging test.`, createdAt: new Date(Date.now() - (11 - i) * 60_000) });
    }
    const first = await profileHtml(digger.diggerId);
    expect(first.match(/>Review number \d\d/g)).toEqual(Array.from({ length: 10 }, (_, i) => `>Review number ${String(10 - i).padStart(2, "0")}`));
    const cursor = first.match(/href="[^"]*\?cursor=([^"]+)"/)?.[1];
    expect(cursor).toBeDefined();
    const second = await profileHtml(digger.diggerId, undefined, `?cursor=${cursor}`);
    expect(second.match(/>Review number \d\d/g)).toEqual([">Review number 00"]);
    expect(second).toContain("11 reviews");
  });
});

describe("the digger's reply", () => {
  it("is posted once by the profile's digger and shown as 'Response from {handle}'; anyone else is refused, nothing changed", async () => {
    const digger = await diggerWithProfile(app);
    const otherDigger = await diggerWithProfile(app);
    const { gig } = await boughtGig(digger);
    await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "5", body: REVIEW });
    const [review] = await db().select().from(reviews).where(and(eq(reviews.gigId, gig.id)));
    const reply = { intent: "reply", reviewId: review!.id, reply: "Thank you, it was a pleasure!" };
    const path = `/digger/${digger.diggerId}`;
    const handle = (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId)))[0]!.handle;

    expect((await digger.client.get(path).then((r) => r.text())).includes(">Reply<")).toBe(true);
    expect((await owner.client.get(path).then((r) => r.text())).includes(">Reply<")).toBe(false);

    const replyOf = async () => (await db().select({ reply: reviews.reply }).from(reviews).where(eq(reviews.id, review!.id)))[0]!.reply;
    expect((await otherDigger.client.post(path, reply)).status).toBe(403);
    expect((await otherDigger.client.post(`/digger/${otherDigger.diggerId}`, reply)).status).toBe(403);
    expect((await owner.client.post(path, reply)).status).toBe(403);
    expect((await new SessionClient(app).post(path, reply)).status).toBe(302);
    expect((await digger.client.post(path, { ...reply, reply: "Thanks!" })).status).toBe(400);
    expect(await replyOf()).toBeNull();

    const posted = await digger.client.post(`${path}.data`, reply);
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Reply posted");
    expect(await replyOf()).toBe(reply.reply);
    expect((await digger.client.post(path, { ...reply, reply: "A second reply, not allowed." })).status).toBe(409);
    expect(await replyOf()).toBe(reply.reply);
    const html = await profileHtml(digger.diggerId);
    expect(html).toContain(`Response from ${handle}`);
    expect(html).toContain(reply.reply);
  });
});

describe("the reply form", () => {
  it("says what is wrong with the reply in the issue's words and leaves the review without one", async () => {
    const digger = await diggerWithProfile(app);
    const { gig } = await boughtGig(digger);
    await post(owner.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "5", body: REVIEW });
    const [review] = await db().select().from(reviews).where(eq(reviews.gigId, gig.id));
    const path = `/digger/${digger.diggerId}`;
    for (const [fields, message] of [
      [{ reply: "Thanks!   " }, TRUST_MESSAGES.replyTooShort],
      [{ reply: "x".repeat(REPLY_MAX + 1) }, TRUST_MESSAGES.replyTooLong],
      [{}, TRUST_MESSAGES.replyTooShort],
    ] as const) {
      // The page's data, as the reply form's fetcher receives it.
      const response = await digger.client.post(`${path}.data`, { intent: "reply", reviewId: review!.id, ...fields });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(message);
    }
    // A review that is not on this profile is still refused as not yours.
    expect((await digger.client.post(path, { intent: "reply", reviewId: randomUUID(), reply: "Thank you, it was a pleasure!" })).status).toBe(403);
    expect((await db().select({ reply: reviews.reply }).from(reviews).where(eq(reviews.id, review!.id)))[0]!.reply).toBeNull();
  });
});

describe("the profile's figures", () => {
  it("shows 'Hired on N% of leads' from five purchases, never a response time", async () => {
    const digger = await diggerWithProfile(app);
    const gigs = [];
    for (let i = 0; i < 4; i++) gigs.push((await boughtGig(digger)).gig);
    await post(owner.client, gigs[0]!, { intent: "hire", diggerId: digger.diggerId });
    await post(owner.client, gigs[1]!, { intent: "hire", diggerId: digger.diggerId });
    expect(await profileHtml(digger.diggerId)).not.toContain("Hired on");
    await boughtGig(digger);
    const page = await profileHtml(digger.diggerId);
    expect(page).toContain("Hired on 40% of leads");
    expect(await profileHtml(digger.diggerId)).not.toContain("Responds in");
  });

  it("says credentials are self-reported, in words", async () => {
    const user = await signUpAs(app, "digger", "Cred Person");
    const { addDiggerProfile } = await import("../support/accounts.ts");
    const diggerId = await addDiggerProfile(app, user, "Cred LLC", { isInsured: true, isLicensed: "yes" });
    const html = await profileHtml(diggerId);
    expect(html).toContain("Insured (self-reported)");
    expect(html).toContain("Licensed (self-reported)");
    expect(html).not.toContain("Bonded (self-reported)");
    expect(html).not.toContain("Verified by Digs");
  });
});

describe("the demo seed", () => {
  it("produces every digger's figures from its own purchases, hires and reviews; nobody is Verified", async () => {
    const fresh = await createTestDatabase();
    try {
      await seedCategories(fresh.db);
      expect(await seedDemoData(fresh.db)).toBe(true);
      const rows = await queryRows<{ handle: string; average: string; total: number; completion: number; verified: boolean; response: number | null; reviews: number; mean: string | null; bought: number; hired: number }>(
        fresh.db,
        sql`select d.handle, d.average_rating::text as average, d.total_ratings as total, d.completion_rate as completion, d.verified, d.response_time_hours as response,
              (select count(*)::int from reviews r where r.digger_id = d.id) as reviews,
              (select round(avg(r.rating), 2)::text from reviews r where r.digger_id = d.id) as mean,
              (select count(*)::int from lead_purchases p where p.digger_id = d.id and p.status = 'completed') as bought,
              (select count(*)::int from hires h join lead_purchases p on p.gig_id = h.gig_id and p.digger_id = h.digger_id and p.status = 'completed' where h.digger_id = d.id) as hired
            from digger_profiles d order by d.handle`,
      );
      expect(rows).toHaveLength(20);
      for (const row of rows) {
        expect(row.total, row.handle).toBe(row.reviews);
        expect(Number(row.average), row.handle).toBe(Number(row.mean ?? 0));
        expect(row.completion, row.handle).toBe(row.bought === 0 ? 0 : Math.round((100 * row.hired) / row.bought));
        expect(row.verified, row.handle).toBe(false);
        expect(row.response, row.handle).toBeNull();
      }
      expect(rows.filter((r) => r.total === 0).map((r) => r.handle)).toEqual(["leo_floors"]);
      expect(new Set(rows.map((r) => r.average)).size).toBeGreaterThanOrEqual(8);
      // Every seeded review is of a completed purchase of the reviewed gig, one per gig and digger.
      const [orphans] = await queryRows<{ n: number }>(
        fresh.db,
        sql`select count(*)::int as n from reviews r left join lead_purchases p on p.id = r.lead_purchase_id and p.gig_id = r.gig_id and p.digger_id = r.digger_id and p.status = 'completed' where p.id is null`,
      );
      expect(orphans!.n).toBe(0);
      const [demoMail] = await fresh.db.select({ n: count() }).from(emails);
      expect(demoMail!.n).toBe(0);
    } finally {
      await fresh.destroy();
    }
  });
});

describe("a refund after the review (issue 30, finding 4)", () => {
  const report = (digger: TestDigger, purchaseId: string, issueType: string) =>
    digger.client.post("/my-leads", { purchaseId, issueType, description: "The client says the job was posted by mistake." });
  const issueOf = async (purchaseId: string) => (await queryRows<{ id: string }>(db(), sql`select id from lead_issues where lead_purchase_id = ${purchaseId}`))[0]!.id;
  const decide = (client: SessionClient, gigId: string, issueId: string) => client.post(`/my-gigs/${gigId}/issues`, { issueId, decision: "approve" });
  const buyers = async (client: SessionClient, gigId: string) => ((await (await client.get(`/my-gigs/${gigId}/diggers`)).json()) as { buyers: GigBuyer[] }).buyers;

  it("the sham client's 5 stars and hire leave every figure and the public profile once they approve a 'Posted by Mistake' refund; the digger sees the review withdrawn", async () => {
    const digger = await diggerWithProfile(app);
    // An honest 3-star review from a real client stays.
    const honest = await boughtGig(digger, other);
    expect((await post(other.client, honest.gig, { intent: "review", diggerId: digger.diggerId, rating: "3", body: REVIEW })).status).toBe(200);

    // A second account posts a $50 gig, the digger buys it.
    const sham = await signUpAs(app, "consumer", "Sham Client");
    const gig = await insertGig(app, sham.id, { budgetMinCents: null, budgetMaxCents: null });
    const purchase = await insertPurchase(app, gig, digger.diggerId);
    expect(purchase.amountPaidCents).toBe(5000);
    const shamReview = "Five stars, the best digger there ever was, truly.";
    expect((await post(sham.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "5", body: shamReview })).status).toBe(200);
    expect((await post(sham.client, gig, { intent: "hire", diggerId: digger.diggerId })).status).toBe(200);
    expect(await figures(digger.diggerId)).toMatchObject({ average: 4, total: 2, completion: 50 });

    // The digger reports 'Posted by Mistake' (100%), the sham client approves it: net cost $0.
    expect((await report(digger, purchase.id, "mistake")).status).toBe(200);
    expect((await decide(sham.client, gig.id, await issueOf(purchase.id))).status).toBe(200);
    const [refund] = await db().select().from(refunds).where(eq(refunds.leadPurchaseId, purchase.id));
    expect(refund!.amountCents).toBe(5000);

    // Only the honest review and purchase count: 3.0 (1 review), hired on 0 of 1.
    expect(await figures(digger.diggerId)).toMatchObject({ average: 3, total: 1, completion: 0 });
    const publicHtml = await profileHtml(digger.diggerId);
    expect(publicHtml).toContain(REVIEW);
    expect(publicHtml).not.toContain(shamReview);
    expect(publicHtml).not.toContain(TRUST_MESSAGES.withdrawn);
    expect(publicHtml).toContain(">1 review<");
    expect(publicHtml).not.toContain(">Hired<");
    // Another signed-in user sees what the public sees.
    expect(await profileHtml(digger.diggerId, other.client)).not.toContain(shamReview);
    // The digger sees it on their own profile, marked.
    const ownHtml = await profileHtml(digger.diggerId, digger.client);
    expect(ownHtml).toContain(shamReview);
    expect(ownHtml).toContain(TRUST_MESSAGES.withdrawn);
    expect(ownHtml).toContain(">1 review<");

    // The client can no longer review, edit, or mark as hired the digger they refunded.
    expect(await answer(await post(sham.client, gig, { intent: "edit-review", diggerId: digger.diggerId, rating: "5", body: shamReview }))).toMatchObject({
      status: 409,
      error: TRUST_MESSAGES.refunded,
    });
    expect(await answer(await post(sham.client, gig, { intent: "hire", diggerId: digger.diggerId }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.refundedHire });
    expect(await answer(await post(sham.client, gig, { intent: "unhire", diggerId: digger.diggerId }))).toMatchObject({ status: 200 });
    expect(await answer(await post(sham.client, gig, { intent: "hire", diggerId: digger.diggerId }))).toMatchObject({ status: 409, error: TRUST_MESSAGES.refundedHire });
    expect(await db().select().from(hires).where(eq(hires.gigId, gig.id))).toHaveLength(0);
    const [row] = await buyers(sham.client, gig.id);
    expect(row).toMatchObject({ reviewable: false, hired: false });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 3, total: 1, completion: 0 });
  });

  it("keeps the review and the hire after a partial refund (50%, 'Already Found Digger')", async () => {
    const digger = await diggerWithProfile(app);
    const client = await signUpAs(app, "consumer", "Paula Partial");
    const gig = await insertGig(app, client.id, { budgetMinCents: null, budgetMaxCents: null });
    const purchase = await insertPurchase(app, gig, digger.diggerId);
    expect((await post(client.client, gig, { intent: "review", diggerId: digger.diggerId, rating: "5", body: REVIEW })).status).toBe(200);
    expect((await post(client.client, gig, { intent: "hire", diggerId: digger.diggerId })).status).toBe(200);
    expect((await report(digger, purchase.id, "already_filled")).status).toBe(200);
    expect((await decide(client.client, gig.id, await issueOf(purchase.id))).status).toBe(200);
    const [refund] = await db().select().from(refunds).where(eq(refunds.leadPurchaseId, purchase.id));
    expect(refund!.amountCents).toBe(2500);
    expect(await figures(digger.diggerId)).toMatchObject({ average: 5, total: 1, completion: 100 });
    const html = await profileHtml(digger.diggerId);
    expect(html).toContain(REVIEW);
    expect(html).toContain(">Hired<");
    expect(await profileHtml(digger.diggerId, digger.client)).not.toContain(TRUST_MESSAGES.withdrawn);
    expect((await buyers(client.client, gig.id))[0]).toMatchObject({ reviewable: true, hired: true });
  });

  it("is the database's rule: a refund written by any path (here by hand) withdraws the review and hire, and taking it away restores them", async () => {
    const digger = await diggerWithProfile(app);
    const { gig, purchase } = await boughtGig(digger);
    await db().insert(reviews).values({ gigId: gig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, rating: 5, body: REVIEW });
    await db().insert(hires).values({ gigId: gig.id, diggerId: digger.diggerId });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 5, total: 1, completion: 100 });
    // Two partial refunds reaching the price, the second paid later: withdrawn from the first that reaches it.
    const half = Math.floor(purchase.amountPaidCents / 2);
    await db().insert(refunds).values({ leadPurchaseId: purchase.id, reason: "duplicate_payment", amountCents: half });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 5, total: 1, completion: 100 });
    const [second] = await db()
      .insert(refunds)
      .values({ leadPurchaseId: purchase.id, reason: "lead_unavailable", amountCents: purchase.amountPaidCents - half })
      .returning({ id: refunds.id });
    expect(await figures(digger.diggerId)).toMatchObject({ average: 0, total: 0, completion: 0 });
    // The provider confirms it (an operator's Retry, the refund job): still withdrawn.
    await db().update(refunds).set({ status: "succeeded", completedAt: new Date() }).where(eq(refunds.id, second!.id));
    expect(await figures(digger.diggerId)).toMatchObject({ average: 0, total: 0, completion: 0 });
    await db().delete(refunds).where(eq(refunds.id, second!.id));
    expect(await figures(digger.diggerId)).toMatchObject({ average: 5, total: 1, completion: 100 });
  });
});
