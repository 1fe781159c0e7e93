/**
 * The client's record from diggers' reviews (issue 51): client_records' review figures (kept by
 * migration 0056's triggers: published, shown, not withdrawn reviews only), their lines in the
 * gig page's record block and on the Browse Gigs card, the Client reviews section of the gig
 * page (newest first, 10 a page, 'Former digger') and of /account, and reports of a client
 * review through the console's Reviews queue (Hide / Keep, the audit row). The digger's form
 * that writes these reviews is tested on its own: here the rows are inserted directly.
 * On PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPS_REVIEW_MESSAGES, REVIEW_REPORT_MESSAGES } from "../../core/ops-moderation.ts";
import { NEW_CLIENT, RECORD_TITLE } from "../../core/reply-guarantee.ts";
import { CLIENT_REVIEWS_PAGE_SIZE, TWO_WAY_TEXTS } from "../../core/two-way-reviews.ts";
import { queryRows } from "../../server/db/client.ts";
import { clientRecords, clientReviews, diggerProfiles, operatorActions, refunds, reviewReports, users } from "../../server/db/schema.ts";
import { DEMO_CLIENT, seedCategories, seedDemoData } from "../../server/db/seed/index.ts";
import { clientRecordFigures } from "../../server/gigs/client-record.ts";
import { clientReviewsQuery } from "../../server/reviews/client-reviews-list.ts";
import { changeUser, signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, type TestDigger, type TestGig } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpOperator(app);
}, 60_000);
afterAll(() => app.close());

const db = () => app.database.db;
const tag = () => randomUUID().slice(0, 8);
const text = async (response: Response) => decodeHtml(await response.text());
const figures = async (clientId: string) => (await clientRecordFigures(db(), [clientId])).get(clientId)!;
const gigPage = (gig: TestGig, client: SessionClient = new SessionClient(app), query = "") => client.get(`/gig/${gig.id}${query}`).then(text);
const gigData = (gig: TestGig, client: SessionClient = new SessionClient(app)) => client.get(`/gig/${gig.id}.data`).then(text);
/** The Client reviews section of a page (from its heading to the end of the main content). */
const section = (html: string) => {
  const start = html.indexOf(`id="${"client-reviews"}"`);
  return start === -1 ? "" : html.slice(start, html.indexOf("</main>", start));
};

/**
 * A completed purchase of a new gig of `client` by `digger` (the gig counted as bought, as the
 * checkout counts it), and the digger's review of the client: published now unless told.
 */
async function clientReview(client: TestUser, digger: TestDigger, over: Partial<typeof clientReviews.$inferInsert> = {}) {
  const gig = await insertGig(app, client.id, { purchaseCount: 1 });
  const purchase = await insertPurchase(app, gig, digger.diggerId);
  const [review] = await db()
    .insert(clientReviews)
    .values({ gigId: gig.id, diggerId: digger.diggerId, leadPurchaseId: purchase.id, clientId: client.id, rating: 5, body: `Clear about the job and paid on time ${tag()}`, publishedAt: new Date(), ...over })
    .returning();
  return { review: review!, gig, purchase };
}

describe("the client's review figures", () => {
  it("count published reviews only: not a blind one, not a hidden one, not one whose purchase was refunded in full", async () => {
    const client = await signUpAs(app, "consumer", "Rosa Reviewed");
    const [first, second] = [await diggerWithProfile(app), await diggerWithProfile(app)];
    await clientReview(client, first, { rating: 5, asDescribed: true, easyToReach: true, paidAsAgreed: true });
    await clientReview(client, second, { rating: 4, asDescribed: false, paidAsAgreed: true });
    expect(await figures(client.id)).toMatchObject({ reviewCount: 2, reviewAverage: 4.5, describedYes: 1, describedNo: 1, reachableYes: 1, reachableNo: 0, paidYes: 2, paidNo: 0 });

    // Blind (the window still open): nothing counts, its answers neither.
    const blind = await clientReview(client, second, { rating: 1, asDescribed: false, easyToReach: false, paidAsAgreed: false, publishedAt: null });
    // Hidden by an operator, and a purchase refunded in full: nothing either.
    await clientReview(client, first, { rating: 1, paidAsAgreed: false, hiddenAt: new Date() });
    const refunded = await clientReview(client, second, { rating: 2, easyToReach: false });
    expect(await figures(client.id)).toMatchObject({ reviewCount: 3, reviewAverage: 3.67, reachableNo: 1 });
    await db().insert(refunds).values({ leadPurchaseId: refunded.purchase.id, reason: "lead_unavailable", amountCents: refunded.purchase.amountPaidCents, status: "succeeded", completedAt: new Date() });
    expect(await figures(client.id)).toMatchObject({ reviewCount: 2, reviewAverage: 4.5, reachableYes: 1, reachableNo: 0, paidNo: 0 });

    // Published at the window's end: now it counts, with its answers.
    await db().update(clientReviews).set({ publishedAt: sql`now()` }).where(eq(clientReviews.id, blind.review.id));
    expect(await figures(client.id)).toMatchObject({ reviewCount: 3, reviewAverage: 3.33, describedYes: 1, describedNo: 2, reachableYes: 1, reachableNo: 1, paidYes: 2, paidNo: 1 });
    // A refund that is not full withdraws nothing.
    const partly = await clientReview(client, first, { rating: 5 });
    await db().insert(refunds).values({ leadPurchaseId: partly.purchase.id, reason: "lead_unavailable", amountCents: Math.floor(partly.purchase.amountPaidCents / 2) });
    expect(await figures(client.id)).toMatchObject({ reviewCount: 4, reviewAverage: 3.75 });
  });
});

describe("the record's lines and the Client reviews section", () => {
  /**
   * A client with three published reviews (5, 4, 5: '4.7 from 3 diggers'; described 2 yes 1 no;
   * reachable 1 yes, 2 unanswered; paid 2 yes, 1 unanswered), and a blind, a hidden and a
   * withdrawn one whose texts must not show anywhere.
   */
  async function reviewedClient() {
    const client = await signUpAs(app, "consumer", "Lena Lines");
    const [first, second] = [await diggerWithProfile(app), await diggerWithProfile(app)];
    const shown = [`Shown review one ${tag()}`, `Shown review two ${tag()}`, `Shown review three ${tag()}`];
    await clientReview(client, first, { rating: 5, body: shown[0], asDescribed: true, easyToReach: true, paidAsAgreed: true });
    await clientReview(client, second, { rating: 4, body: shown[1], asDescribed: false, paidAsAgreed: true });
    await clientReview(client, first, { rating: 5, body: shown[2], asDescribed: true });
    const unseen = [`Blind words nobody may read ${tag()}`, `Hidden words ${tag()}`, `Withdrawn words ${tag()}`];
    await clientReview(client, second, { rating: 1, body: unseen[0], asDescribed: false, easyToReach: false, paidAsAgreed: false, publishedAt: null });
    await clientReview(client, first, { rating: 1, body: unseen[1], hiddenAt: new Date() });
    const refunded = await clientReview(client, second, { rating: 1, body: unseen[2] });
    await db().insert(refunds).values({ leadPurchaseId: refunded.purchase.id, reason: "lead_unavailable", amountCents: refunded.purchase.amountPaidCents, status: "succeeded", completedAt: new Date() });
    const gig = await insertGig(app, client.id, { title: `Tile the bathroom floor zqr ${tag()}` });
    return { client, first, second, shown, unseen, gig };
  }
  const LINES = ["4.7 from 3 diggers", "The job was as described: 67% yes (3 answers)", "Easy to reach: 100% yes (1 answer)", "Paid as agreed: 100% yes (2 answers)"];

  it("shows the rating and the shares of yes in 'About this client', and the published reviews, to every viewer of the gig page; nothing unpublished, hidden or withdrawn in any response", async () => {
    const { client, first, shown, unseen, gig } = await reviewedClient();
    const digger = await diggerWithProfile(app);
    for (const viewer of [digger.client, new SessionClient(app), client.client, first.client]) {
      const html = await gigPage(gig, viewer);
      expect(html).toContain(RECORD_TITLE);
      for (const line of LINES) expect(html).toContain(line);
      expect(html).not.toContain(NEW_CLIENT);
      expect(html).toContain(`<h2 id="client-reviews-title" class="text-lg font-semibold">${TWO_WAY_TEXTS.sectionTitle}</h2>`);
      for (const body of shown) expect(section(html)).toContain(body);
      const data = await gigData(gig, viewer);
      for (const line of LINES) expect(data).toContain(line);
      for (const body of shown) expect(data).toContain(body);
      for (const words of unseen) {
        expect(html).not.toContain(words);
        expect(data).not.toContain(words);
      }
    }
    // The digger's handle links their profile; the answers given are shown, an unanswered one is not.
    const html = section(await gigPage(gig, digger.client));
    expect(html).toContain(`href="/digger/${first.diggerId}"`);
    expect(html).toContain("The job was as described: </span><span class=\"font-medium\">No</span>");
    expect(html.match(/Easy to reach: /g)).toHaveLength(1);
  });

  it("puts the rating line on the Browse Gigs card, beside the record's first line; none for a client without published reviews", async () => {
    const { gig } = await reviewedClient();
    // A client whose only review is still blind.
    const unrated = await signUpAs(app, "consumer");
    await clientReview(unrated, await diggerWithProfile(app), { publishedAt: null });
    const other = await insertGig(app, unrated.id, { title: `Tile the bathroom floor zqr unrated ${tag()}` });
    const html = await text(await new SessionClient(app).get(`/browse-gigs?q=${encodeURIComponent("bathroom floor zqr")}`));
    const card = (title: string) => html.slice(html.indexOf(title), html.indexOf(title) + 2500);
    expect(card(gig.title)).toContain("4.7 from 3 diggers");
    expect(card(gig.title)).toMatch(/Hired on 0 of \d gigs/);
    expect(card(other.title)).toContain("Hired on 0 of 1 gig");
    expect(card(other.title)).not.toMatch(/\d\.\d from \d+ digger/);
  });

  it("lists the reviews newest first, 10 a page, with a link to the next page and back to the newest; along the partial index", async () => {
    const client = await signUpAs(app, "consumer", "Paula Pages");
    const diggers = [await diggerWithProfile(app), await diggerWithProfile(app)];
    const base = Date.now() - 3_600_000;
    const bodies: string[] = [];
    for (let i = 0; i < CLIENT_REVIEWS_PAGE_SIZE + 1; i++) {
      const body = `Paged review number ${String(i).padStart(2, "0")} ${tag()}`;
      bodies.push(body);
      // Reviews 4 and 5 published at the same instant: the id decides between them.
      const at = new Date(base + (i === 5 ? 4 : i) * 60_000);
      await clientReview(client, diggers[i % 2]!, { body, publishedAt: at, createdAt: new Date(base - i * 60_000) });
    }
    const tied = await db().select({ id: clientReviews.id, body: clientReviews.body }).from(clientReviews).where(and(eq(clientReviews.clientId, client.id), eq(clientReviews.publishedAt, new Date(base + 4 * 60_000))));
    const tiedOrder = tied.sort((a, b) => (a.id < b.id ? 1 : -1)).map((r) => r.body);
    const expected = [...bodies].reverse().filter((b) => !tiedOrder.includes(b));
    // Newest first: 10, 9, 8, 7, 6, then the two of the same instant by id (descending), then 3, 2, 1, 0.
    expected.splice(5, 0, ...tiedOrder);

    const gig = await insertGig(app, client.id);
    const first = section(await gigPage(gig));
    const order = (html: string) => bodies.map((b) => [html.indexOf(b), b] as const).filter(([at]) => at >= 0).sort((a, b) => a[0] - b[0]).map(([, b]) => b);
    expect(order(first)).toEqual(expected.slice(0, CLIENT_REVIEWS_PAGE_SIZE));
    expect(first).not.toContain("Newest reviews");
    const next = /href="[^"?]*\?cursor=([^"#]+)#client-reviews"[^>]*>More client reviews/.exec(first);
    expect(next).not.toBeNull();
    const second = section(await gigPage(gig, new SessionClient(app), `?cursor=${next![1]}`));
    expect(order(second)).toEqual(expected.slice(CLIENT_REVIEWS_PAGE_SIZE));
    expect(second).toContain("Newest reviews");
    expect(second).not.toContain("More client reviews");
    // A cursor nobody wrote is the first page.
    expect(order(section(await gigPage(gig, new SessionClient(app), "?cursor=bm90LWEtY3Vyc29y")))).toEqual(expected.slice(0, CLIENT_REVIEWS_PAGE_SIZE));

    const plan = await db().transaction(async (tx) => {
      await queryRows(tx, sql`set local enable_seqscan = off`);
      return (await queryRows<{ "QUERY PLAN": string }>(tx, sql`explain ${clientReviewsQuery(db(), client.id, null)}`)).map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toMatch(/client_reviews_client_published_idx/);
    expect(plan).not.toMatch(/Sort\b/);
  });

  it("names a digger whose account is deleted 'Former digger', without a link; a hidden profile keeps its handle, without a link", async () => {
    const client = await signUpAs(app, "consumer", "Fern Former");
    const [gone, hidden] = [await diggerWithProfile(app), await diggerWithProfile(app)];
    const goneReview = await clientReview(client, gone, { body: `By a digger who left ${tag()}` });
    await clientReview(client, hidden, { body: `By a digger taken down ${tag()}` });
    const [hiddenHandle] = await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, hidden.diggerId));
    await changeUser(app, gone.id, { deletedAt: new Date() });
    await db().update(diggerProfiles).set({ hiddenAt: new Date() }).where(eq(diggerProfiles.id, hidden.diggerId));
    const html = section(await gigPage(goneReview.gig));
    expect(html).toContain(goneReview.review.body);
    expect(html).toContain(TWO_WAY_TEXTS.formerDigger);
    expect(html).not.toContain(`/digger/${gone.diggerId}`);
    expect(html).toContain(hiddenHandle!.handle);
    expect(html).not.toContain(`/digger/${hidden.diggerId}`);
  });

  it("shows the client their own record and reviews on /account (anchor client-reviews); nothing of it to a digger, 'No reviews from diggers yet.' to a new client", async () => {
    const { client, shown, unseen } = await reviewedClient();
    const html = await text(await client.client.get("/account"));
    expect(html).toContain(TWO_WAY_TEXTS.accountTitle);
    for (const line of LINES) expect(html).toContain(line);
    expect(html).toContain('id="client-reviews"');
    for (const body of shown) expect(section(html)).toContain(body);
    const data = await text(await client.client.get("/account.data"));
    for (const words of unseen) {
      expect(html).not.toContain(words);
      expect(data).not.toContain(words);
    }
    const newcomer = await signUpAs(app, "consumer");
    const fresh = await text(await newcomer.client.get("/account"));
    expect(fresh).toContain(TWO_WAY_TEXTS.accountTitle);
    expect(fresh).toContain(NEW_CLIENT);
    expect(section(fresh)).toContain(TWO_WAY_TEXTS.noReviews);
    const digger = await diggerWithProfile(app);
    const diggers = await text(await digger.client.get("/account"));
    expect(diggers).not.toContain(TWO_WAY_TEXTS.accountTitle);
    expect(diggers).not.toContain('id="client-reviews"');
  });
});

describe("reporting a client review, and the Reviews queue", () => {
  const report = (user: TestUser | SessionClient, gig: TestGig, reviewId: string, reason = `Written about someone else ${tag()}`) =>
    ("client" in user ? user.client : user).post(`/gig/${gig.id}`, { intent: "report-review", reviewId, reason });
  const reportRows = (clientReviewId: string) => db().select().from(reviewReports).where(eq(reviewReports.clientReviewId, clientReviewId));

  it("lets a signed-in user who sees the review report it once; a visitor signs in first; a blind, hidden, withdrawn or other client's review is not found", async () => {
    const client = await signUpAs(app, "consumer", "Rhea Reported");
    const digger = await diggerWithProfile(app);
    const { review, gig } = await clientReview(client, digger);
    const reporter = await diggerWithProfile(app);

    expect(location(await report(new SessionClient(app), gig, review.id))).toMatch(/^\/auth/);
    expect(await reportRows(review.id)).toHaveLength(0);
    const tooShort = await report(reporter, gig, review.id, "bad");
    expect(tooShort.status).toBe(400);
    expect(await text(tooShort)).toContain(REVIEW_REPORT_MESSAGES.reasonRequired);

    const ok = await report(reporter, gig, review.id);
    expect(ok.status).toBe(200);
    expect(await text(ok)).toContain(REVIEW_REPORT_MESSAGES.reported);
    const again = await report(reporter, gig, review.id);
    expect(again.status).toBe(409);
    expect(await text(again)).toContain(REVIEW_REPORT_MESSAGES.already);
    expect(await reportRows(review.id)).toEqual([expect.objectContaining({ reporterId: reporter.id, reviewId: null, resolvedAt: null })]);
    // The database holds "once" too.
    await expect(db().insert(reviewReports).values({ clientReviewId: review.id, reporterId: reporter.id, reason: "Inserted twice directly." })).rejects.toThrow();

    const blind = await clientReview(client, digger, { publishedAt: null });
    const hidden = await clientReview(client, digger, { hiddenAt: new Date() });
    const withdrawn = await clientReview(client, digger);
    await db().insert(refunds).values({ leadPurchaseId: withdrawn.purchase.id, reason: "lead_unavailable", amountCents: withdrawn.purchase.amountPaidCents });
    const othersReview = await clientReview(await signUpAs(app, "consumer"), digger);
    for (const unseen of [blind, hidden, withdrawn, othersReview]) {
      expect((await report(reporter, gig, unseen.review.id)).status).toBe(404);
      expect(await reportRows(unseen.review.id)).toHaveLength(0);
    }
    // A gig its reporter may not see (taken down by an operator) is not found, as its page is.
    const takenDown = await insertGig(app, client.id, { hiddenAt: new Date(), hiddenReason: "Asks for payment outside the site" });
    expect(location(await report(await diggerWithProfile(app), takenDown, review.id))).toBe("/browse-gigs");

    // The client reports a review of themself from /account, as a digger may on their own profile; not another's.
    const own = await client.client.post("/account", { intent: "report-review", reviewId: review.id, reason: "This digger never came to the house." });
    expect(own.status).toBe(200);
    expect((await client.client.post("/account", { intent: "report-review", reviewId: othersReview.review.id, reason: "Reporting another client's review." })).status).toBe(404);
    expect(await reportRows(review.id)).toHaveLength(2);
  });

  it("lists a reported client review in the queue with its client and digger; Hide takes it out of the figures and the section, with its audit row; Keep leaves it", async () => {
    const client = await signUpAs(app, "consumer", `Quinn Queue ${tag()}`);
    const [writer, other] = [await diggerWithProfile(app), await diggerWithProfile(app)];
    const bad = await clientReview(client, writer, { rating: 1, body: `An unfair client review ${tag()}`, paidAsAgreed: false });
    const good = await clientReview(client, other, { rating: 5, body: `A fair client review ${tag()}`, paidAsAgreed: true });
    const [writerHandle] = await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, writer.diggerId));
    expect(await figures(client.id)).toMatchObject({ reviewCount: 2, reviewAverage: 3, paidYes: 1, paidNo: 1 });
    const reasons = [`Written by a competitor ${tag()}`, `Not this client at all ${tag()}`];
    for (const reason of reasons) expect((await report(await signUpAs(app, "consumer"), bad.gig, bad.review.id, reason)).status).toBe(200);
    expect((await report(await diggerWithProfile(app), good.gig, good.review.id)).status).toBe(200);

    const queue = await text(await operator.client.get("/ops/reviews"));
    const row = queue.slice(queue.indexOf(bad.review.body) - 1500, queue.indexOf(bad.review.body) + 2500);
    expect(row).toContain("Review of a client");
    expect(row).toContain(`href="/ops/users/${client.id}"`);
    expect(row).toContain(client.fullName);
    expect(row).toContain(`href="/digger/${writer.diggerId}"`);
    expect(row).toContain(writerHandle!.handle);
    for (const reason of reasons) expect(row).toContain(reason);
    expect(row).toContain('name="side" value="client"');

    // Without its side, the id names no review of a digger.
    expect((await operator.client.post("/ops/reviews", { intent: "hide", reviewId: bad.review.id })).status).toBe(404);
    const hidden = await operator.client.post("/ops/reviews", { intent: "hide", reviewId: bad.review.id, side: "client" });
    expect(hidden.status).toBe(200);
    expect(await text(hidden)).toContain(OPS_REVIEW_MESSAGES.hiddenClient);
    expect(await figures(client.id)).toMatchObject({ reviewCount: 1, reviewAverage: 5, paidYes: 1, paidNo: 0 });
    const page = await gigPage(bad.gig);
    expect(page).not.toContain(bad.review.body);
    expect(page).toContain("5.0 from 1 digger");
    expect((await text(await client.client.get("/account")))).not.toContain(bad.review.body);
    expect(await reportRows(bad.review.id)).toEqual([expect.objectContaining({ resolution: "hidden" }), expect.objectContaining({ resolution: "hidden" })]);
    const [audit] = await db().select().from(operatorActions).where(eq(operatorActions.subjectId, bad.review.id));
    expect(audit).toMatchObject({ operatorId: operator.id, action: "review.hide", subjectType: "review", subjectUserId: client.id, details: { reports: "2", side: "client" } });
    expect((await operator.client.post("/ops/reviews", { intent: "hide", reviewId: bad.review.id, side: "client" })).status).toBe(409);
    // Hidden: no longer to report.
    expect((await report(await signUpAs(app, "consumer"), bad.gig, bad.review.id)).status).toBe(404);

    const kept = await operator.client.post("/ops/reviews", { intent: "keep", reviewId: good.review.id, side: "client" });
    expect(await text(kept)).toContain(OPS_REVIEW_MESSAGES.kept);
    expect(await gigPage(good.gig)).toContain(good.review.body);
    expect((await db().select().from(operatorActions).where(eq(operatorActions.subjectId, good.review.id))).map((a) => [a.action, a.details])).toEqual([["review.keep", { reports: "1", side: "client" }]]);
    expect(await text(await operator.client.get("/ops/reviews"))).not.toContain(reasons[0]);
  });

  it("refuses an operator a review they wrote or one of themself", async () => {
    const operatorClient = await signUpOperator(app, "Ophelia Operator");
    const { review } = await clientReview(operatorClient, await diggerWithProfile(app));
    await db().insert(reviewReports).values({ clientReviewId: review.id, reporterId: operator.id, reason: "About the operator themself." });
    expect((await operatorClient.client.post("/ops/reviews", { intent: "hide", reviewId: review.id, side: "client" })).status).toBe(403);
    const [row] = await db().select({ hiddenAt: clientReviews.hiddenAt }).from(clientReviews).where(eq(clientReviews.id, review.id));
    expect(row!.hiddenAt).toBeNull();
    expect((await operator.client.post("/ops/reviews", { intent: "keep", reviewId: review.id, side: "client" })).status).toBe(200);
  });
});

describe("the console's user page", () => {
  it("lists a digger's reviews of clients and a client's reviews from diggers, blind and hidden ones marked: operators see every one", async () => {
    const client = await signUpAs(app, "consumer", `Uma Userpage ${tag()}`);
    const digger = await diggerWithProfile(app);
    const shown = await clientReview(client, digger, { body: `Shown on the record ${tag()}` });
    const blind = await clientReview(client, digger, { body: `Still blind for now ${tag()}`, publishedAt: null });
    const hidden = await clientReview(client, digger, { body: `Hidden after a report ${tag()}`, hiddenAt: new Date() });
    const [handle] = await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId));
    const received = await text(await operator.client.get(`/ops/users/${client.id}`));
    const list = (html: string, title: string) => html.slice(html.indexOf(`>${title}</h2>`), html.indexOf("</section>", html.indexOf(`>${title}</h2>`)));
    const fromDiggers = list(received, "Reviews from diggers received");
    for (const { review } of [shown, blind, hidden]) expect(fromDiggers).toContain(review.body);
    expect(fromDiggers).toContain(`from @${handle!.handle}`);
    expect(fromDiggers).toContain("(not yet published)");
    expect(fromDiggers).toContain("(hidden by an operator)");
    const given = list(await text(await operator.client.get(`/ops/users/${digger.id}`)), "Reviews of clients given");
    for (const { review } of [shown, blind, hidden]) expect(given).toContain(review.body);
    expect(given).toContain(`for ${client.fullName}`);
    // Not the console: nobody else reaches the page.
    expect((await client.client.get(`/ops/users/${client.id}`)).status).toBe(404);
  });
});

describe("the demo seed", () => {
  it("gives the demo client published reviews from diggers, counted by the database", async () => {
    const fresh = await createTestDatabase();
    try {
      await seedCategories(fresh.db);
      expect(await seedDemoData(fresh.db)).toBe(true);
      const [demo] = await fresh.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CLIENT.email));
      const [record] = await fresh.db.select().from(clientRecords).where(eq(clientRecords.clientId, demo!.id));
      expect(record).toMatchObject({ reviewCount: 6 });
      expect(record!.reviewAverage).toBeGreaterThan(3);
      // Every one is of the digger's completed purchase of the client's gig, and published.
      const [orphans] = await queryRows<{ n: number }>(
        fresh.db,
        sql`select count(*)::int as n from client_reviews r
            left join lead_purchases p on p.id = r.lead_purchase_id and p.gig_id = r.gig_id and p.digger_id = r.digger_id and p.status = 'completed'
            left join gigs g on g.id = r.gig_id and g.consumer_id = r.client_id
            where p.id is null or g.id is null or r.published_at is null`,
      );
      expect(orphans!.n).toBe(0);
    } finally {
      await fresh.destroy();
    }
  }, 120_000);
});
