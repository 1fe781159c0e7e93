/**
 * The console's Gigs, Reviews and Payments sections (issue 22), through the real app: Hide and
 * Restore a gig (owner told with the reason, gone from every public list and page, buyers keep
 * the contact), Report a review (signed-in, once, with a reason) and Hide / Keep it (the profile
 * and the digger's figures follow), and Payments (pending refunds with their last error, Retry
 * as a job, today's totals), each writing its audit row.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPS_GIG_MESSAGES, OPS_REVIEW_MESSAGES, REVIEW_REPORT_MESSAGES } from "../../core/ops-moderation.ts";
import { OPERATORS_OWN_RECORDS } from "../../core/operator-actions.ts";
import { diggerProfiles, gigs, notifications, operatorActions, refunds, reviewReports, reviews, users } from "../../server/db/schema.ts";
import { recordOperatorAction } from "../../server/events/audit.ts";
import { changeUser, signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobOf } from "../support/jobs.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpOperator(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const tag = () => randomUUID().slice(0, 8);
const text = async (response: Response) => decodeHtml(await response.text());
const audit = (subjectId: string) => db().select().from(operatorActions).where(eq(operatorActions.subjectId, subjectId));

describe("Gigs: Hide and Restore", () => {
  it("hides a gig with a reason: the owner is told, the public loses it, its buyer keeps the contact; Restore brings it back", async () => {
    const owner = await signUpAs(app, "consumer", "Gwen Owner");
    const word = `Zephyrine${tag()}`;
    const gig = await insertGig(app, owner.id, { title: `Fix the ${word} porch railing` });
    const buyer = await diggerWithProfile(app);
    await insertPurchase(app, gig, buyer.diggerId);
    const browse = `/browse-gigs?q=${word.toLowerCase()}`;
    expect(await text(await app.request(browse))).toContain(`href="/gig/${gig.id}"`);

    const list = await text(await operator.client.get(`/ops/gigs?q=${word.toLowerCase()}`));
    expect(list).toContain(gig.title);
    const missing = await operator.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason: "  " });
    expect(missing.status).toBe(400);
    expect((await missing.text())).toContain("Please give a reason");

    const reason = `Asks for payment outside the site ${tag()}`;
    const hidden = await operator.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason });
    expect(hidden.status).toBe(200);
    expect(await hidden.text()).toContain(OPS_GIG_MESSAGES.hidden);
    expect((await operator.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason })).status).toBe(409);

    expect(await text(await app.request(browse))).not.toContain(`href="/gig/${gig.id}"`);
    expect(decodeHtml(await (await app.request("/")).text())).not.toContain(gig.title);
    expect(await (await app.request("/sitemap.xml")).text()).not.toContain(gig.id);
    const visitor = await new SessionClient(app).get(`/gig/${gig.id}`);
    expect(location(visitor)).toBe("/browse-gigs");
    const buyersPage = await buyer.client.get(`/gig/${gig.id}`);
    expect(buyersPage.status).toBe(200);
    expect(await text(buyersPage)).toContain(owner.email);
    // Nobody new can buy it.
    const other = await diggerWithProfile(app);
    const buy = await other.client.post(`/gig/${gig.id}`, { intent: "purchase" });
    expect(location(buy)).toBe("/browse-gigs");

    const [notice] = await db().select().from(notifications).where(and(eq(notifications.userId, owner.id), eq(notifications.kind, "gig.hidden")));
    expect(notice?.text).toContain(reason);
    const [mail] = await mailTo(app, owner.email);
    expect(mail?.subject).toBe(`Your gig "${gig.title}" was hidden`);
    expect(mail?.textBody).toContain(`Reason: ${reason}`);
    expect(await text(await owner.client.get("/my-gigs"))).toContain(`Reason: ${reason}`);
    // The reason never reaches another digger or a visitor.
    expect(await text(await other.client.get(`/gig/${gig.id}`))).not.toContain(reason);

    const restored = await operator.client.post("/ops/gigs", { intent: "restore", gigId: gig.id });
    expect(await restored.text()).toContain(OPS_GIG_MESSAGES.restored);
    expect(await text(await app.request(browse))).toContain(`href="/gig/${gig.id}"`);
    expect((await audit(gig.id)).map((row) => [row.action, row.reason, row.operatorId, row.subjectUserId])).toEqual(
      expect.arrayContaining([
        ["gig.hide", reason, operator.id, owner.id],
        ["gig.restore", null, operator.id, owner.id],
      ]),
    );
    expect((await operator.client.post("/ops/gigs", { intent: "restore", gigId: gig.id })).status).toBe(409);
    expect((await operator.client.post("/ops/gigs", { intent: "hide", gigId: randomUUID(), reason })).status).toBe(404);
  });
});

describe("the page of a withdrawn gig", () => {
  it("says it is hidden, with the reason, to its owner and operators; to a buyer only that it is no longer listed", async () => {
    const owner = await signUpAs(app, "consumer", "Hester Hidden");
    const gig = await insertGig(app, owner.id);
    const buyer = await diggerWithProfile(app);
    await insertPurchase(app, gig, buyer.diggerId);
    const reason = `Duplicate of another listing ${tag()}`;
    expect((await operator.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason })).status).toBe(200);

    for (const viewer of [owner, operator]) {
      const page = await text(await viewer.client.get(`/gig/${gig.id}`));
      expect(page).toContain("Hidden by an operator");
      expect(page).toContain(`Reason: ${reason}`);
    }
    const buyersPage = await text(await buyer.client.get(`/gig/${gig.id}`));
    expect(buyersPage).toContain("This gig is no longer listed");
    expect(buyersPage).not.toContain("Hidden by an operator");
    expect(buyersPage).not.toContain(reason);
    // Not for sale: the owner's and the operator's page offer no purchase.
    expect(await text(await operator.client.get(`/gig/${gig.id}`))).not.toContain("Buy this lead");
  });

  it("says a suspended client's gig is not listed", async () => {
    const owner = await signUpAs(app, "consumer", "Sue Suspended");
    const gig = await insertGig(app, owner.id);
    const buyer = await diggerWithProfile(app);
    await insertPurchase(app, gig, buyer.diggerId);
    await db().update(users).set({ suspendedAt: new Date(), suspendedReason: "Fake listings" }).where(eq(users.id, owner.id));
    const operatorsPage = await text(await operator.client.get(`/gig/${gig.id}`));
    expect(operatorsPage).toContain("Not listed: its client's account is suspended");
    expect(operatorsPage).not.toContain("Hidden by an operator");
    const buyersPage = await text(await buyer.client.get(`/gig/${gig.id}`));
    expect(buyersPage).toContain("This gig is no longer listed");
    expect(buyersPage).not.toContain("suspended");
  });

  it("asks only those who can buy to buy the lead", async () => {
    const owner = await signUpAs(app, "consumer", "Olive Owner");
    const gig = await insertGig(app, owner.id);
    const buyer = await diggerWithProfile(app);
    await insertPurchase(app, gig, buyer.diggerId);
    const path = `/gig/${gig.id}`;
    const pitch = "Buy this lead to see the client's contact details.";
    expect(await text(await new SessionClient(app).get(path))).toContain(pitch);
    expect(await text(await (await diggerWithProfile(app)).client.get(path))).toContain(pitch);
    expect(await text(await owner.client.get(path))).not.toContain(pitch);
    expect(await text(await buyer.client.get(path))).not.toContain(pitch);
    expect(await text(await (await signUpAs(app, "consumer")).client.get(path))).not.toContain(pitch);
  });
});

describe("Reviews: Report, Hide and Keep", () => {
  async function reviewed(ratings: number[]) {
    const digger = await diggerWithProfile(app);
    const ids: string[] = [];
    for (const rating of ratings) {
      const client = await signUpAs(app, "consumer", "Rhea Reviewer");
      const gig = await insertGig(app, client.id);
      const purchase = await insertPurchase(app, gig, digger.diggerId);
      const [row] = await db()
        .insert(reviews)
        .values({ gigId: gig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, rating, body: `Review body number ${rating}, long enough to count.` })
        .returning({ id: reviews.id });
      ids.push(row!.id);
    }
    return { digger, ids };
  }
  const figures = async (diggerId: string) =>
    (await db().select({ average: diggerProfiles.averageRating, total: diggerProfiles.totalRatings }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)))[0]!;

  it("takes a report from a signed-in user once, with a reason; visitors are sent to sign in", async () => {
    const { digger, ids } = await reviewed([1]);
    const path = `/digger/${digger.diggerId}`;
    const visitor = await new SessionClient(app).post(path, { intent: "report-review", reviewId: ids[0]!, reason: "This review is about another business." });
    expect(location(visitor)).toMatch(/^\/auth/);
    expect(await text(await new SessionClient(app).get(path))).not.toContain(">Report<");

    const reporter = await signUpAs(app, "consumer");
    // Report is a link to this page with that review's form open, which works without JavaScript.
    const reportLink = `href="/digger/${digger.diggerId}?report=${ids[0]}#review-${ids[0]}"`;
    const profile = await text(await reporter.client.get(path));
    expect(profile).toContain(reportLink);
    expect(profile).toContain(`id="review-${ids[0]}"`);
    expect(profile).not.toContain(">Report Review<");
    const opened = await text(await reporter.client.get(`${path}?report=${ids[0]}`));
    expect(opened).toContain(">Report Review<");
    expect(opened).toContain('name="reason"');
    // A visitor's address with ?report= opens nothing: Report is for signed-in users.
    expect(await text(await new SessionClient(app).get(`${path}?report=${ids[0]}`))).not.toContain(">Report Review<");
    // Posted without JavaScript from the opened form: the page comes back with the form open and the reason marked.
    const short = await reporter.client.post(`${path}?report=${ids[0]}`, { intent: "report-review", reviewId: ids[0]!, reason: "bad" });
    expect(short.status).toBe(400);
    const shortPage = await text(short);
    expect(shortPage).toContain(REVIEW_REPORT_MESSAGES.reasonRequired);
    expect(shortPage).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*name="reason"|<textarea[^>]*name="reason"[^>]*aria-invalid="true"/);
    const ok = await reporter.client.post(path, { intent: "report-review", reviewId: ids[0]!, reason: "This review is about another business." });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(REVIEW_REPORT_MESSAGES.reported);
    const again = await reporter.client.post(path, { intent: "report-review", reviewId: ids[0]!, reason: "Reporting it a second time here." });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(REVIEW_REPORT_MESSAGES.already);
    // A review of another profile is not this page's.
    const elsewhere = await reviewed([5]);
    expect((await reporter.client.post(path, { intent: "report-review", reviewId: elsewhere.ids[0]!, reason: "Not on this profile at all." })).status).toBe(404);
    // The database holds "once" too.
    await expect(db().insert(reviewReports).values({ reviewId: ids[0]!, reporterId: reporter.id, reason: "Inserted twice directly." })).rejects.toThrow();
  });

  it("Hide takes the review off the profile and out of the figures, and closes its reports; Keep leaves it", async () => {
    const { digger, ids } = await reviewed([5, 1]);
    expect(await figures(digger.diggerId)).toEqual({ average: 3, total: 2 });
    const [good, bad] = ids as [string, string];
    const reasonA = `Written by a competitor ${tag()}`;
    for (const [id, reason] of [[bad, reasonA], [good, `Looks like a fake five stars ${tag()}`]] as const) {
      const reporter = await signUpAs(app, "digger");
      await reporter.client.post(`/digger/${digger.diggerId}`, { intent: "report-review", reviewId: id, reason });
    }
    const queue = await text(await operator.client.get("/ops/reviews"));
    expect(queue).toContain(reasonA);
    expect(queue).toContain("Review body number 1");

    const hidden = await operator.client.post("/ops/reviews", { intent: "hide", reviewId: bad });
    expect(await hidden.text()).toContain(OPS_REVIEW_MESSAGES.hidden);
    expect(await figures(digger.diggerId)).toEqual({ average: 5, total: 1 });
    const profile = await text(await app.request(`/digger/${digger.diggerId}`));
    expect(profile).not.toContain("Review body number 1");
    expect(profile).toContain("Review body number 5");
    expect((await db().select().from(reviewReports).where(eq(reviewReports.reviewId, bad)))[0]).toMatchObject({ resolution: "hidden" });
    expect((await operator.client.post("/ops/reviews", { intent: "hide", reviewId: bad })).status).toBe(409);

    const kept = await operator.client.post("/ops/reviews", { intent: "keep", reviewId: good });
    expect(await kept.text()).toContain(OPS_REVIEW_MESSAGES.kept);
    expect(await text(await app.request(`/digger/${digger.diggerId}`))).toContain("Review body number 5");
    expect(await text(await operator.client.get("/ops/reviews"))).not.toContain(reasonA);
    expect((await audit(bad)).map((row) => [row.action, row.subjectUserId])).toEqual([["review.hide", digger.id]]);
    expect((await audit(good)).map((row) => row.action)).toEqual(["review.keep"]);
    // A hidden review cannot be reported again.
    const late = await signUpAs(app, "consumer");
    expect((await late.client.post(`/digger/${digger.diggerId}`, { intent: "report-review", reviewId: bad, reason: "Reporting a hidden review." })).status).toBe(404);
  });

  it("a kept review that its client then edits is back in the queue with its reports open", async () => {
    const digger = await diggerWithProfile(app);
    const client = await signUpAs(app, "consumer", "Kim Kept");
    const gig = await insertGig(app, client.id);
    const purchase = await insertPurchase(app, gig, digger.diggerId);
    const [review] = await db()
      .insert(reviews)
      .values({ gigId: gig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, rating: 5, body: "Quick, tidy and on budget, would hire again." })
      .returning({ id: reviews.id });
    const reason = `Reads like a paid review ${tag()}`;
    const reporter = await signUpAs(app, "digger");
    await reporter.client.post(`/digger/${digger.diggerId}`, { intent: "report-review", reviewId: review!.id, reason });
    await operator.client.post("/ops/reviews", { intent: "keep", reviewId: review!.id });
    expect(await text(await operator.client.get("/ops/reviews"))).not.toContain(reason);

    const edited = "Changed my mind after the keep: now a different text entirely.";
    const edit = await client.client.post(`/my-gigs/${gig.id}/diggers`, { intent: "edit-review", diggerId: digger.diggerId, rating: "1", body: edited });
    expect(await edit.text()).toContain("Review updated");
    const queue = await text(await operator.client.get("/ops/reviews"));
    expect(queue).toContain(reason);
    expect(queue).toContain(edited);
    // Its reporter's report is the open one: reporting again is still once.
    const again = await reporter.client.post(`/digger/${digger.diggerId}`, { intent: "report-review", reviewId: review!.id, reason: `Still suspicious ${tag()}` });
    expect(again.status).toBe(409);
  });
});

describe("Payments", () => {
  it("lists a refund the provider has not confirmed, with its last error and attempts; Retry queues it again", async () => {
    const client = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    const gig = await insertGig(app, client.id, { title: `Payments check gig ${tag()}` });
    const purchase = await insertPurchase(app, gig, digger.diggerId);
    const lastError = `card_declined ${tag()}`;
    const [refund] = await db()
      .insert(refunds)
      .values({ leadPurchaseId: purchase.id, reason: "duplicate_payment", amountCents: purchase.amountPaidCents, attempts: 7, lastError })
      .returning({ id: refunds.id });
    const page = await text(await operator.client.get("/ops/payments"));
    expect(page).toContain(lastError);
    expect(page).toContain("Failed · 7 attempts");
    expect(page).toContain("Purchases today");

    expect(await jobOf(db(), "refund.send", "refundId", refund!.id)).toBeUndefined();
    const retried = await operator.client.post("/ops/payments", { refundId: refund!.id });
    expect(retried.status).toBe(200);
    expect(await jobOf(db(), "refund.send", "refundId", refund!.id)).toBeDefined();
    expect((await audit(refund!.id)).map((row) => [row.action, row.subjectUserId])).toEqual([["refund.retry", digger.id]]);

    await db().update(refunds).set({ status: "succeeded", completedAt: sql`now()` }).where(eq(refunds.id, refund!.id));
    expect((await operator.client.post("/ops/payments", { refundId: refund!.id })).status).toBe(409);
    expect((await operator.client.post("/ops/payments", { refundId: "not-a-uuid" })).status).toBe(400);
  });

  it("totals today's completed purchases and refunds", async () => {
    const before = await text(await operator.client.get("/ops/payments"));
    const count = (html: string, what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(html)?.[1] ?? 0);
    const client = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    await insertPurchase(app, await insertGig(app, client.id), digger.diggerId);
    const after = await text(await operator.client.get("/ops/payments"));
    expect(count(after, "purchases?")).toBe(count(before, "purchases?") + 1);
  });
});

describe("Verification: the Verified badge", () => {
  it("is granted and removed only with a note, shows on the profile, and writes the audit trail", async () => {
    const digger = await diggerWithProfile(app);
    const list = await text(await operator.client.get(`/ops/verification?q=${encodeURIComponent(digger.email)}`));
    expect(list).toContain(`href="/digger/${digger.diggerId}"`);
    const noNote = await operator.client.post("/ops/verification", { intent: "grant", diggerId: digger.diggerId, reason: "" });
    expect(noNote.status).toBe(400);
    const note = `Checked a driver's licence on a video call ${tag()}`;
    const granted = await operator.client.post("/ops/verification", { intent: "grant", diggerId: digger.diggerId, reason: note });
    expect(await granted.text()).toContain("Verified badge granted.");
    const [profile] = await db().select({ verified: diggerProfiles.verified }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId));
    expect(profile?.verified).toBe(true);
    expect(await text(await app.request(`/digger/${digger.diggerId}`))).toContain("Verified");
    expect(await text(await app.request(`/digger/${digger.diggerId}`))).not.toContain(note);
    expect((await operator.client.post("/ops/verification", { intent: "grant", diggerId: digger.diggerId, reason: note })).status).toBe(409);
    await operator.client.post("/ops/verification", { intent: "remove", diggerId: digger.diggerId, reason: "Licence turned out to be expired" });
    const [after] = await db().select({ verified: diggerProfiles.verified }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId));
    expect(after?.verified).toBe(false);
    expect((await audit(digger.diggerId)).map((row) => [row.action, row.reason, row.subjectUserId])).toEqual(
      expect.arrayContaining([
        ["profile.verify", note, digger.id],
        ["profile.unverify", "Licence turned out to be expired", digger.id],
      ]),
    );
    // Nobody else can set it: the digger's own profile form ignores a forged field (tests/integration/reviews.test.ts), and /ops is 404 to them.
    expect((await digger.client.post("/ops/verification", { intent: "grant", diggerId: digger.diggerId, reason: note })).status).toBe(404);
  });
});

describe("an operator's own records (issue 30, finding 8)", () => {
  /** An operator who is also a digger with a profile (`operator` is a client). */
  let diggerOperator: TestDigger;
  beforeAll(async () => {
    diggerOperator = await diggerWithProfile(app);
    await changeUser(app, diggerOperator.id, { operatorSince: new Date() });
  });

  /** Expects the action refused with the message and 403, and no audit row for `subjectId`. */
  async function expectRefused(response: Response, subjectId: string) {
    expect(response.status).toBe(403);
    expect(await text(response)).toContain(OPERATORS_OWN_RECORDS);
    expect(await audit(subjectId)).toEqual([]);
  }

  /** A review of `digger` by `client`, with an open report from a third user. */
  async function reportedReview(digger: TestDigger, clientId: string) {
    const gig = await insertGig(app, clientId);
    const purchase = await insertPurchase(app, gig, digger.diggerId);
    const [review] = await db()
      .insert(reviews)
      .values({ gigId: gig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, rating: 5, body: "Quick, tidy and on budget, would hire again." })
      .returning({ id: reviews.id });
    const reporter = await signUpAs(app, "consumer");
    await db().insert(reviewReports).values({ reviewId: review!.id, reporterId: reporter.id, reason: "Reads like a review of a friend." });
    return review!.id;
  }

  /** A pending refund of a purchase of `clientId`'s gig by `digger`. */
  async function pendingRefund(digger: TestDigger, clientId: string) {
    const purchase = await insertPurchase(app, await insertGig(app, clientId), digger.diggerId);
    const [refund] = await db()
      .insert(refunds)
      .values({ leadPurchaseId: purchase.id, reason: "duplicate_payment", amountCents: purchase.amountPaidCents })
      .returning({ id: refunds.id });
    return refund!.id;
  }

  it("cannot grant or remove their own Verified badge", async () => {
    const grant = await diggerOperator.client.post("/ops/verification", { intent: "grant", diggerId: diggerOperator.diggerId, reason: "I know who I am, trust me." });
    await expectRefused(grant, diggerOperator.diggerId);
    const [profile] = await db().select({ verified: diggerProfiles.verified }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerOperator.diggerId));
    expect(profile?.verified).toBe(false);
    await db().update(diggerProfiles).set({ verified: true }).where(eq(diggerProfiles.id, diggerOperator.diggerId));
    await expectRefused(await diggerOperator.client.post("/ops/verification", { intent: "remove", diggerId: diggerOperator.diggerId, reason: "Taking my own badge away." }), diggerOperator.diggerId);
    await db().update(diggerProfiles).set({ verified: false }).where(eq(diggerProfiles.id, diggerOperator.diggerId));
  });

  it("cannot hide or keep a review of themself, nor one they wrote; another operator can", async () => {
    const client = await signUpAs(app, "consumer");
    const ofThem = await reportedReview(diggerOperator, client.id);
    for (const intent of ["hide", "keep"]) await expectRefused(await diggerOperator.client.post("/ops/reviews", { intent, reviewId: ofThem }), ofThem);
    const [review] = await db().select({ hiddenAt: reviews.hiddenAt }).from(reviews).where(eq(reviews.id, ofThem));
    expect(review?.hiddenAt).toBeNull();
    expect((await db().select().from(reviewReports).where(eq(reviewReports.reviewId, ofThem)))[0]?.resolvedAt).toBeNull();

    const byThem = await reportedReview(await diggerWithProfile(app), operator.id);
    await expectRefused(await operator.client.post("/ops/reviews", { intent: "hide", reviewId: byThem }), byThem);
    expect((await diggerOperator.client.post("/ops/reviews", { intent: "hide", reviewId: byThem })).status).toBe(200);
  });

  it("cannot hide or restore their own gig", async () => {
    const gig = await insertGig(app, operator.id);
    await expectRefused(await operator.client.post("/ops/gigs", { intent: "hide", gigId: gig.id, reason: "Hiding my own gig from the list." }), gig.id);
    await db().update(gigs).set({ hiddenAt: new Date(), hiddenReason: "Hidden by another operator." }).where(eq(gigs.id, gig.id));
    await expectRefused(await operator.client.post("/ops/gigs", { intent: "restore", gigId: gig.id }), gig.id);
    expect((await db().select({ hiddenAt: gigs.hiddenAt }).from(gigs).where(eq(gigs.id, gig.id)))[0]?.hiddenAt).not.toBeNull();
  });

  it("cannot retry the refund of their own purchase, nor of a purchase of their own gig", async () => {
    const ownPurchase = await pendingRefund(diggerOperator, (await signUpAs(app, "consumer")).id);
    await expectRefused(await diggerOperator.client.post("/ops/payments", { refundId: ownPurchase }), ownPurchase);
    expect(await jobOf(db(), "refund.send", "refundId", ownPurchase)).toBeUndefined();
    const onOwnGig = await pendingRefund(await diggerWithProfile(app), operator.id);
    await expectRefused(await operator.client.post("/ops/payments", { refundId: onOwnGig }), onOwnGig);
    expect(await jobOf(db(), "refund.send", "refundId", onOwnGig)).toBeUndefined();
  });

  it("the audit trail itself refuses a row whose subject is its operator", async () => {
    await expect(
      db().transaction((tx) =>
        recordOperatorAction(tx, { operatorId: operator.id, action: "gig.hide", subjectType: "gig", subjectId: randomUUID(), subjectUserId: operator.id }),
      ),
    ).rejects.toThrow(OPERATORS_OWN_RECORDS);
  });
});
