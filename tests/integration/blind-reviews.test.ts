/**
 * Two-way reviews, blind until both have spoken (issue 51, docs/decisions/0077-two-way-reviews.md),
 * the client's side and the window's end: a review of a hire is nowhere the other party or the
 * public can read it (the profile's page and data, its figures, the digger's export and e-mails;
 * the digger's review of the client likewise from the client) until the second review or the
 * window's end publishes both at once, each told once; the reminders; edits before and after;
 * a hire removed, a full refund, reviews of before the change, and a digger who was not hired.
 * The digger's own review of the client is written here as its operation writes it (the window's
 * protocol, tests/support/review-windows.ts). On PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRUST_MESSAGES, type GigBuyer } from "../../core/reviews.ts";
import { reviewDiscardedText, reviewedYouText, reviewsPublishedText, TWO_WAY_TEXTS, waitingForOtherText } from "../../core/two-way-reviews.ts";
import { queryRows } from "../../server/db/client.ts";
import { clientRecords, diggerProfiles, hires, notifications, refunds, reviews, reviewWindows } from "../../server/db/schema.ts";
import { readerTime } from "../../server/reader-time.ts";
import { publishDueWindow, remindDueWindow, sweepReviewWindows } from "../../server/reviews/review-window-jobs.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobsSettled, makeJobDue } from "../support/jobs.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, mailTo, type TestDigger, type TestGig } from "../support/leads.ts";
import { diggerReviewsInWindow, insertClientReview, moveWindowBack, windowOf, type DiggerReview, type Pair } from "../support/review-windows.ts";
import { SessionClient } from "../support/session-client.ts";
import { plan, recordingDb, type Statement } from "../support/query-plans.ts";
import { setZones } from "../support/visit-rows.ts";
import { someoneWaitsOnALock } from "../support/lock-waits.ts";

let app: TestApp;
let visitor: SessionClient;
beforeAll(async () => {
  app = await createTestApp();
  visitor = new SessionClient(app);
});
afterAll(() => app.close());
const db = () => app.database.db;

const CLIENT_ZONE = "America/Los_Angeles";
const DIGGER_ZONE = "America/Chicago";
const dialogUrl = (gig: TestGig) => `/my-gigs/${gig.id}/diggers`;
const answer = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error?: string; success?: string }) });
/** A text no other test writes: found only where this review went. */
const unique = (what: string) => `${what} ${randomUUID()}: tidy work, on time, fair price.`;

interface Lead {
  client: TestUser;
  digger: TestDigger;
  gig: TestGig;
  purchaseId: string;
  handle: string;
  pair: Pair;
  /** The digger's review of the client, as a row to write. */
  diggerReview: (rating: number, body: string) => DiggerReview;
}

/** A client (Maria) and a digger who bought her gig's lead, each in their own zone; `hired`: marked hired in the Diggers dialog, which opens the window. */
async function lead({ hired = true } = {}): Promise<Lead> {
  const client = await signUpAs(app, "consumer", "Maria Sanchez-Whitfield");
  const digger = await diggerWithProfile(app);
  await setZones(app, { [client.id]: CLIENT_ZONE, [digger.id]: DIGGER_ZONE });
  const gig = await insertGig(app, client.id);
  const purchase = await insertPurchase(app, gig, digger.diggerId);
  const [{ handle }] = (await db().select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, digger.diggerId))) as [{ handle: string }];
  const l: Lead = {
    client,
    digger,
    gig,
    purchaseId: purchase.id,
    handle,
    pair: { gigId: gig.id, diggerId: digger.diggerId },
    diggerReview: (rating, body) => ({ gigId: gig.id, diggerId: digger.diggerId, clientId: client.id, leadPurchaseId: purchase.id, rating, body }),
  };
  if (hired) expect(await dialog(l, { intent: "hire" })).toMatchObject({ status: 200, success: TRUST_MESSAGES.hired });
  return l;
}

const dialog = async (l: Lead, fields: Record<string, string>) => answer(await l.client.client.post(dialogUrl(l.gig), { diggerId: l.digger.diggerId, ...fields }));
const clientReviews = (l: Lead, rating: number, body: string) => dialog(l, { intent: "review", rating: String(rating), body });
const clientEdits = (l: Lead, rating: number, body: string) => dialog(l, { intent: "edit-review", rating: String(rating), body });
const buyerRow = async (l: Lead) => ((await (await l.client.client.get(dialogUrl(l.gig))).json()) as { buyers: GigBuyer[] }).buyers[0]!;
const reviewRow = async (l: Lead) => (await db().select().from(reviews).where(eq(reviews.gigId, l.gig.id)))[0];
const figures = async (diggerId: string) =>
  (await db().select({ average: diggerProfiles.averageRating, total: diggerProfiles.totalRatings }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)))[0]!;
const clientFigures = async (clientId: string) => (await db().select().from(clientRecords).where(eq(clientRecords.clientId, clientId)))[0];
const exportOf = async (user: TestUser) => {
  const text = await (await user.client.get("/account/data")).text();
  return { text, data: JSON.parse(text) as { reviews: { written: Array<{ body: string }>; received: Array<{ body: string }> }; clientReviews: { written: Array<{ body: string }>; received: Array<{ body: string }> } } };
};
/** Everything e-mailed to `user`, subjects and both parts. */
const mailText = async (user: TestUser) => (await mailTo(app, user.email)).map((m) => `${m.subject}\n${m.textBody}\n${m.htmlBody ?? ""}`).join("\n");
const subjects = async (user: TestUser) => (await mailTo(app, user.email)).map((m) => m.subject);
const bell = async (user: TestUser) => db().select({ kind: notifications.kind, text: notifications.text, link: notifications.link }).from(notifications).where(eq(notifications.userId, user.id));
const endOf = async (l: Lead) => (await windowOf(app, l.pair))!.endsAt;
/** The window's end as each side reads it. */
const endFor = async (l: Lead, side: "client" | "digger") => readerTime(side === "client" ? CLIENT_ZONE : DIGGER_ZONE, app.config).date(await endOf(l));
/** '{name} reviewed you. Write yours by {date} to see it.' as `side` receives it. */
const waitingSubject = async (l: Lead, side: "client" | "digger") => reviewedYouText(side === "digger" ? "Maria" : l.handle, await endFor(l, side));
const profileHtml = async (diggerId: string, client: SessionClient) => decodeHtml(await (await client.get(`/digger/${diggerId}`)).text());
const profileData = async (diggerId: string, client: SessionClient) => decodeHtml(await (await client.get(`/digger/${diggerId}.data`)).text());

/** Runs the window's `reviews.publish` job now (as its time had come) and waits for it. */
async function runPublishJob(l: Lead) {
  await makeJobDue(db(), "reviews.publish", "gigId", l.gig.id);
  await jobsSettled(db(), "reviews.publish");
  await jobsSettled(db(), "email.deliver");
}
async function runRemindJob(l: Lead) {
  await makeJobDue(db(), "reviews.remind", "gigId", l.gig.id);
  await jobsSettled(db(), "reviews.remind");
}

describe("a hire opens a blind window", () => {
  it("opens one with the hire, 14 days long, with its two jobs: the reminder 3 days before the end, the publication just after", async () => {
    const l = await lead();
    const window = (await windowOf(app, l.pair))!;
    expect(window.publishedAt).toBeNull();
    expect(window.endsAt.getTime() - window.openedAt.getTime()).toBe(14 * 86_400_000);
    const jobs = await queryRows<{ name: string; wait: number }>(
      db(),
      sql`select name, extract(epoch from start_after - now())::float8 as wait from pgboss.job where name like 'reviews.%' and data->>'gigId' = ${l.gig.id} order by name`,
    );
    expect(jobs.map((j) => j.name)).toEqual(["reviews.publish", "reviews.remind"]);
    expect(Math.abs(jobs[0]!.wait - (14 * 86_400 + 30))).toBeLessThan(60);
    expect(Math.abs(jobs[1]!.wait - 11 * 86_400)).toBeLessThan(60);
  });
});

describe("the client's review of a hire is blind", () => {
  it("reaches neither the digger nor the public: not the profile's page or data, its figures, the digger's export or e-mails; the client sees when it will be shown", async () => {
    const l = await lead();
    const body = unique("Blind client review");
    expect(await clientReviews(l, 2, body)).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.posted });
    expect((await reviewRow(l))!.publishedAt).toBeNull();

    // The profile, as anyone: no review, no figure.
    for (const reader of [visitor, l.digger.client, l.client.client]) {
      const html = await profileHtml(l.digger.diggerId, reader);
      expect(html).not.toContain(body);
      expect(html).toContain("No reviews yet.");
      const data = await profileData(l.digger.diggerId, reader);
      expect(data).not.toContain(body);
      expect(data).not.toContain("Maria S.");
    }
    expect(await figures(l.digger.diggerId)).toEqual({ average: 0, total: 0 });

    // The digger's export has no review received; the client's has the one they wrote.
    const theirs = await exportOf(l.digger);
    expect(theirs.text).not.toContain(body);
    expect(theirs.data.reviews.received).toEqual([]);
    expect((await exportOf(l.client)).data.reviews.written.map((r) => r.body)).toEqual([body]);

    // The digger hears that Maria reviewed them, once, without the text or the rating.
    expect((await subjects(l.digger)).sort()).toEqual([await waitingSubject(l, "digger"), `You were marked as hired for "${l.gig.title}"`]);
    const mail = await mailText(l.digger);
    expect(mail).not.toContain(body);
    expect(mail).not.toMatch(/2 out of 5|stars/);
    expect((await bell(l.digger)).map((n) => [n.kind, n.link])).toEqual(
      expect.arrayContaining([
        ["hire.marked", `/digger/${l.digger.diggerId}`],
        ["review.waiting", "/my-leads"],
      ]),
    );
    expect((await bell(l.digger)).map((n) => n.kind)).not.toContain("review.received");

    // The client's Diggers dialog: their review, when it will be shown (in their zone), still editable.
    expect((await buyerRow(l)).review).toEqual({
      rating: 2,
      body,
      createdAt: expect.any(String),
      published: false,
      editable: true,
      waitingText: waitingForOtherText(l.handle, await endFor(l, "client")),
    });

    // No reply to it, no report of it: it is not on the profile.
    const id = (await reviewRow(l))!.id;
    expect((await l.digger.client.post(`/digger/${l.digger.diggerId}`, { intent: "reply", reviewId: id, reply: "Thank you, it was a pleasure!" })).status).toBe(403);
    const reporter = await signUpAs(app, "consumer", "Rita Reporter");
    expect((await reporter.client.post(`/digger/${l.digger.diggerId}`, { intent: "report-review", reviewId: id, reason: "This review looks like a fake one." })).status).toBe(404);
    expect((await reviewRow(l))!.reply).toBeNull();
  });

  it("the digger's review of the client reaches neither the client's export, e-mails or Diggers dialog, nor the client's figures", async () => {
    const l = await lead();
    const body = unique("Blind digger review");
    expect(await diggerReviewsInWindow(app, l.diggerReview(1, body))).toBe("blind");

    const mine = await exportOf(l.client);
    expect(mine.text).not.toContain(body);
    expect(mine.data.clientReviews.received).toEqual([]);
    expect((await exportOf(l.digger)).data.clientReviews.written.map((r) => r.body)).toEqual([body]);
    expect(await subjects(l.client)).toEqual([await waitingSubject(l, "client")]);
    expect(await mailText(l.client)).not.toContain(body);
    expect((await bell(l.client)).map((n) => [n.kind, n.link])).toEqual([["review.waiting", "/my-gigs"]]);
    expect(await (await l.client.client.get(dialogUrl(l.gig))).text()).not.toContain(body);
    expect(await clientFigures(l.client.id)).toMatchObject({ reviewCount: 0 });
  });
});

describe("publication", () => {
  it("by the second review: both at once, both told once, shown everywhere", async () => {
    const l = await lead();
    const clientBody = unique("Client first");
    const diggerBody = unique("Digger second");
    await clientReviews(l, 4, clientBody);
    expect(await diggerReviewsInWindow(app, l.diggerReview(5, diggerBody))).toBe("published");

    const window = (await windowOf(app, l.pair))!;
    expect(window.publishedAt).not.toBeNull();
    expect((await reviewRow(l))!.publishedAt).toEqual(window.publishedAt);
    expect(await figures(l.digger.diggerId)).toEqual({ average: 4, total: 1 });
    expect(await clientFigures(l.client.id)).toMatchObject({ reviewCount: 1, reviewAverage: 5 });
    expect(await profileHtml(l.digger.diggerId, visitor)).toContain(clientBody);
    expect((await exportOf(l.digger)).data.reviews.received.map((r) => r.body)).toEqual([clientBody]);
    expect((await exportOf(l.client)).data.clientReviews.received.map((r) => r.body)).toEqual([diggerBody]);

    const shown = reviewsPublishedText(l.gig.title);
    expect((await subjects(l.client)).filter((s) => s === shown)).toHaveLength(1);
    expect((await subjects(l.digger)).filter((s) => s === shown)).toHaveLength(1);
    // The digger was told of the client's review before: not again now that it is shown.
    expect((await subjects(l.digger)).filter((s) => s.startsWith("Maria reviewed you"))).toHaveLength(1);
    expect((await bell(l.digger)).filter((n) => n.kind === "reviews.published").map((n) => n.link)).toEqual([`/digger/${l.digger.diggerId}#reviews`]);
    expect((await bell(l.client)).filter((n) => n.kind === "reviews.published").map((n) => n.link)).toEqual(["/account#client-reviews"]);
    expect((await mailTo(app, l.client.email)).find((m) => m.subject === shown)!.textBody).toContain("/account#client-reviews");

    // The client's job reruns find nothing to do.
    await runPublishJob(l);
    expect((await subjects(l.client)).filter((s) => s === shown)).toHaveLength(1);
  });

  it("by the client's review when the digger's came first: 'Both reviews are now shown'", async () => {
    const l = await lead();
    await diggerReviewsInWindow(app, l.diggerReview(3, unique("Digger first")));
    expect(await clientReviews(l, 5, unique("Client second"))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.published });
    expect((await reviewRow(l))!.publishedAt).not.toBeNull();
    expect(await figures(l.digger.diggerId)).toEqual({ average: 5, total: 1 });
    expect((await subjects(l.digger)).filter((s) => s === reviewsPublishedText(l.gig.title))).toHaveLength(1);
    expect((await buyerRow(l)).review).toMatchObject({ published: true, editable: false, waitingText: null });
  });

  it("by the job at the window's end (times moved back 15 days), exactly once however often it runs", async () => {
    const l = await lead();
    const body = unique("Published by the job");
    await clientReviews(l, 3, body);
    // Not before its end (a job started early finds nothing due).
    expect(await publishDueWindow(app.services, l.gig.id, l.digger.diggerId)).toBe(false);
    expect((await windowOf(app, l.pair))!.publishedAt).toBeNull();

    await moveWindowBack(app, l.pair, 15);
    await runPublishJob(l);
    expect((await windowOf(app, l.pair))!.publishedAt).not.toBeNull();
    expect((await reviewRow(l))!.publishedAt).not.toBeNull();
    expect(await figures(l.digger.diggerId)).toEqual({ average: 3, total: 1 });
    expect(await profileHtml(l.digger.diggerId, visitor)).toContain(body);
    const shown = reviewsPublishedText(l.gig.title);
    expect((await subjects(l.digger)).filter((s) => s === shown)).toHaveLength(1);
    expect((await subjects(l.client)).filter((s) => s === shown)).toHaveLength(1);

    // Again: a second job of the window, the sweep, the handler itself.
    await app.services.jobs.send("reviews.publish", { ...l.pair, endsAt: new Date().toISOString() });
    await jobsSettled(db(), "reviews.publish");
    expect(await sweepReviewWindows(app.services)).toMatchObject({ published: 0 });
    expect(await publishDueWindow(app.services, l.gig.id, l.digger.diggerId)).toBe(false);
    expect((await subjects(l.digger)).filter((s) => s === shown)).toHaveLength(1);
    expect((await subjects(l.client)).filter((s) => s === shown)).toHaveLength(1);
  });

  it("by the sweep for a window whose job was missed; a window nobody reviewed in ends in silence", async () => {
    const reviewed = await lead();
    await diggerReviewsInWindow(app, reviewed.diggerReview(4, unique("Swept")));
    const silent = await lead();
    for (const l of [reviewed, silent]) await moveWindowBack(app, l.pair, 15);
    // (The sweep's schedule may have come first: either way, the sweep did it.)
    await sweepReviewWindows(app.services);
    for (const l of [reviewed, silent]) expect((await windowOf(app, l.pair))!.publishedAt).not.toBeNull();
    expect(await clientFigures(reviewed.client.id)).toMatchObject({ reviewCount: 1 });
    expect((await subjects(reviewed.client)).filter((s) => s === reviewsPublishedText(reviewed.gig.title))).toHaveLength(1);
    expect(await subjects(silent.client)).toEqual([]);
    expect(await subjects(silent.digger)).toEqual([`You were marked as hired for "${silent.gig.title}"`]);
  });

  it("not by the client after the window's end: the 14 days are both sides' (no reading the digger's review first, then writing)", async () => {
    const l = await lead();
    await diggerReviewsInWindow(app, l.diggerReview(1, unique("Read first")));
    await moveWindowBack(app, l.pair, 15);
    expect((await buyerRow(l)).reviewable).toBe(false);
    expect(await clientReviews(l, 1, unique("Written after reading"))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.clientWindowOver });
    expect(await reviewRow(l)).toBeUndefined();
    // Its job publishes the digger's review; the client still cannot write.
    expect(await publishDueWindow(app.services, l.gig.id, l.digger.diggerId)).toBe(true);
    expect(await clientReviews(l, 1, unique("Written after reading"))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.clientWindowOver });
  });

  it("of two reviews written at the same moment: once, both published, both told once", async () => {
    const l = await lead();
    const [client] = await Promise.all([clientReviews(l, 4, unique("Racing client")), diggerReviewsInWindow(app, l.diggerReview(4, unique("Racing digger")))]);
    expect(client.status).toBe(200);
    expect((await windowOf(app, l.pair))!.publishedAt).not.toBeNull();
    expect((await reviewRow(l))!.publishedAt).not.toBeNull();
    const shown = reviewsPublishedText(l.gig.title);
    expect((await subjects(l.client)).filter((s) => s === shown)).toHaveLength(1);
    expect((await subjects(l.digger)).filter((s) => s === shown)).toHaveLength(1);
  });
});

describe("reminders", () => {
  const reminded = async (user: TestUser, prefix: string) => (await mailTo(app, user.email)).filter((m) => m.subject.startsWith(prefix));

  it("the first review's notice once (not for an edit), and 3 days before the end once, to the side that has not written", async () => {
    const l = await lead();
    await clientReviews(l, 4, unique("Reminding"));
    expect(await clientEdits(l, 5, unique("Edited while blind"))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.updated });
    expect(await reminded(l.digger, "Maria reviewed you.")).toHaveLength(1);

    // Not due yet (a job started early): nothing.
    expect(await remindDueWindow(app.services, l.gig.id, l.digger.diggerId)).toBeNull();
    expect(await reminded(l.digger, "Maria reviewed you.")).toHaveLength(1);
    expect((await windowOf(app, l.pair))!.remindedAt).toBeNull();

    await moveWindowBack(app, l.pair, 12);
    await runRemindJob(l);
    await jobsSettled(db(), "email.deliver");
    const mails = await reminded(l.digger, "Maria reviewed you.");
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe(await waitingSubject(l, "digger"));
    expect(mails[0]!.textBody).toContain("Reminder:");
    expect((await windowOf(app, l.pair))!.remindedAt).not.toBeNull();
    expect((await bell(l.digger)).filter((n) => n.kind === "review.waiting")).toHaveLength(2);
    // The client, who wrote, hears nothing of it.
    expect(await subjects(l.client)).toEqual([]);

    // Once: the job again, the sweep, the handler.
    await app.services.jobs.send("reviews.remind", { ...l.pair, endsAt: new Date().toISOString() });
    await jobsSettled(db(), "reviews.remind");
    await sweepReviewWindows(app.services);
    expect(await remindDueWindow(app.services, l.gig.id, l.digger.diggerId)).toBeNull();
    expect(await reminded(l.digger, "Maria reviewed you.")).toHaveLength(2);
  });

  it("reminds the client when the digger wrote; nobody when both wrote (published) or neither had (and the first review later is told once)", async () => {
    const diggerWrote = await lead();
    await diggerReviewsInWindow(app, diggerWrote.diggerReview(4, unique("Digger wrote")));
    const bothWrote = await lead();
    await clientReviews(bothWrote, 4, unique("Both wrote, client"));
    await diggerReviewsInWindow(app, bothWrote.diggerReview(4, unique("Both wrote, digger")));
    const neither = await lead();
    for (const l of [diggerWrote, bothWrote, neither]) {
      await moveWindowBack(app, l.pair, 12);
      await runRemindJob(l);
    }
    expect(await reminded(diggerWrote.client, `${diggerWrote.handle} reviewed you.`)).toHaveLength(2);
    expect(await reminded(diggerWrote.digger, "Maria reviewed you.")).toHaveLength(0);
    expect((await subjects(bothWrote.digger)).filter((s) => s.startsWith("Maria reviewed you."))).toHaveLength(1);
    expect((await subjects(bothWrote.client)).filter((s) => s.includes("reviewed you."))).toHaveLength(0);
    expect((await windowOf(app, bothWrote.pair))!.remindedAt).toBeNull();

    // Neither had written: the reminder's moment passed silently; a review now is told once, not followed by a reminder.
    expect((await windowOf(app, neither.pair))!.remindedAt).not.toBeNull();
    await clientReviews(neither, 3, unique("Late but in time"));
    await sweepReviewWindows(app.services);
    expect(await reminded(neither.digger, "Maria reviewed you.")).toHaveLength(1);
  });
});

describe("edits", () => {
  it("while blind, silently; once published, 'This review is published and can no longer be changed', nothing changed", async () => {
    const l = await lead();
    await clientReviews(l, 2, unique("First words"));
    const edited = unique("Second thoughts");
    const before = (await mailTo(app, l.digger.email)).length;
    expect(await clientEdits(l, 4, edited)).toEqual({ status: 200, success: "Review updated" });
    expect(await reviewRow(l)).toMatchObject({ rating: 4, body: edited, publishedAt: null });
    expect(await mailTo(app, l.digger.email)).toHaveLength(before);

    await diggerReviewsInWindow(app, l.diggerReview(5, unique("Digger publishes")));
    expect(await clientEdits(l, 1, unique("Too late"))).toMatchObject({ status: 409, error: "This review is published and can no longer be changed" });
    expect(await reviewRow(l)).toMatchObject({ rating: 4, body: edited });
    expect(await figures(l.digger.diggerId)).toEqual({ average: 4, total: 1 });
    expect((await buyerRow(l)).review).toMatchObject({ published: true, editable: false, waitingText: null });
  });

  it("a review written before the hire stays published, becomes the client's side and is frozen; the digger's review then publishes the window", async () => {
    const l = await lead({ hired: false });
    const body = unique("Before the hire");
    expect(await clientReviews(l, 5, body)).toMatchObject({ status: 200, success: TRUST_MESSAGES.reviewPosted });
    expect(await subjects(l.digger)).toEqual([`New review for "${l.gig.title}"`]);
    expect(await dialog(l, { intent: "hire" })).toMatchObject({ status: 200 });
    expect((await reviewRow(l))!.publishedAt).not.toBeNull();
    expect(await profileHtml(l.digger.diggerId, visitor)).toContain(body);
    expect(await clientEdits(l, 1, unique("Changed after the hire"))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.locked });
    expect((await buyerRow(l)).review).toMatchObject({ published: true, editable: false, waitingText: null });
    expect(await diggerReviewsInWindow(app, l.diggerReview(4, unique("Digger after the hire")))).toBe("published");
    expect(await clientFigures(l.client.id)).toMatchObject({ reviewCount: 1 });
  });
});

describe("a hire removed within the window", () => {
  it("discards both unpublished reviews and tells the digger; a new hire reopens the same window, with its first end", async () => {
    const l = await lead();
    const clientBody = unique("Discarded client review");
    await clientReviews(l, 1, clientBody);
    await insertClientReview(app, l.diggerReview(1, unique("Discarded digger review")));
    const first = (await windowOf(app, l.pair))!;
    expect(await dialog(l, { intent: "unhire" })).toMatchObject({ status: 200, success: TRUST_MESSAGES.hireRemoved });
    expect(await reviewRow(l)).toBeUndefined();
    expect(await queryRows(db(), sql`select 1 from client_reviews where gig_id = ${l.gig.id}`)).toEqual([]);
    expect((await windowOf(app, l.pair))!.closedAt).not.toBeNull();
    expect((await buyerRow(l)).review).toBeNull();
    const bell = await queryRows<{ text: string }>(db(), sql`select text from notifications where user_id = ${l.digger.id} and kind = 'review.discarded'`);
    expect(bell.map((row) => row.text)).toEqual([reviewDiscardedText("Maria", l.gig.title)]);

    // No fresh 14 days by removing and re-adding the hire (a veto on the digger's review): the same window, the same end.
    expect(await dialog(l, { intent: "hire" })).toMatchObject({ status: 200 });
    const second = (await windowOf(app, l.pair))!;
    expect(second).toMatchObject({ publishedAt: null, closedAt: null, endsAt: first.endsAt, openedAt: first.openedAt });
    const [{ n }] = (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from pgboss.job where name = 'reviews.publish' and data->>'gigId' = ${l.gig.id}`)) as [{ n: number }];
    expect(n).toBe(1);
    expect(await clientReviews(l, 4, unique("Review of the new hire"))).toMatchObject({ status: 200, success: TWO_WAY_TEXTS.posted });
    expect((await reviewRow(l))!.publishedAt).toBeNull();
  });

  it("after the window's end, before its job ran: publishes instead of discarding", async () => {
    const l = await lead();
    const body = unique("Kept after the end");
    await diggerReviewsInWindow(app, l.diggerReview(2, body));
    await moveWindowBack(app, l.pair, 15);
    expect(await dialog(l, { intent: "unhire" })).toMatchObject({ status: 200, success: TRUST_MESSAGES.hireRemoved });
    const [row] = await queryRows<{ publishedAt: Date | null }>(db(), sql`select published_at as "publishedAt" from client_reviews where gig_id = ${l.gig.id}`);
    expect(row!.publishedAt).not.toBeNull();
    expect((await windowOf(app, l.pair))!).toMatchObject({ closedAt: null, publishedAt: expect.any(Date) });
  });
});

describe("the client's record under publications at once", () => {
  it.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, two reviews of one client published by transactions committing at once both count", async () => {
    const [a, b] = [await lead(), await lead()];
    // One client for both: b's gig moved to a's client (its window and purchase stay).
    await db().execute(sql`update gigs set consumer_id = ${a.client.id} where id = ${b.gig.id}`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
    const first = db().transaction(async (tx) => {
      await tx.execute(sql`insert into client_reviews (gig_id, digger_id, lead_purchase_id, client_id, rating, body, published_at)
                           values (${a.gig.id}, ${a.digger.diggerId}, ${a.purchaseId}, ${a.client.id}, 5, ${unique("First of two")}, now())`);
      inserted();
      await held;
    });
    await firstInserted;
    const second = db()
      .execute(sql`insert into client_reviews (gig_id, digger_id, lead_purchase_id, client_id, rating, body, published_at)
                   values (${b.gig.id}, ${b.digger.diggerId}, ${b.purchaseId}, ${a.client.id}, 3, ${unique("Second of two")}, now())`)
      .then(() => undefined);
    // The second waits for the client's record row, locked by the first's trigger: commit the first only then.
    await someoneWaitsOnALock(db());
    release();
    await Promise.all([first, second]);
    expect(await clientFigures(a.client.id)).toMatchObject({ reviewCount: 2, reviewAverage: 4 });
  });
});

describe("a full refund", () => {
  it("withdraws both sides' published reviews from the figures: the digger's and the client's record", async () => {
    const l = await lead();
    await clientReviews(l, 5, unique("Refunded client review"));
    await diggerReviewsInWindow(app, l.diggerReview(2, unique("Refunded digger review")));
    expect(await figures(l.digger.diggerId)).toEqual({ average: 5, total: 1 });
    expect(await clientFigures(l.client.id)).toMatchObject({ reviewCount: 1, reviewAverage: 2 });
    const [purchase] = await queryRows<{ amount: number }>(db(), sql`select amount_paid_cents as amount from lead_purchases where id = ${l.purchaseId}`);
    await db().insert(refunds).values({ leadPurchaseId: l.purchaseId, reason: "lead_unavailable", amountCents: purchase!.amount, status: "succeeded", completedAt: new Date() });
    expect(await figures(l.digger.diggerId)).toEqual({ average: 0, total: 0 });
    expect(await clientFigures(l.client.id)).toMatchObject({ reviewCount: 0, reviewAverage: 0 });
  });
});

describe("reviews outside a blind window", () => {
  it("of a hire before the change (its window published): stay published; a new one is published at once, frozen", async () => {
    const l = await lead({ hired: false });
    // As migration 0056 left a hire of before: its window already published.
    await db().insert(hires).values(l.pair);
    await db().insert(reviewWindows).values({ ...l.pair, leadPurchaseId: l.purchaseId, openedAt: sql`now() - interval '2 days'`, endsAt: sql`now() + interval '12 days'`, publishedAt: sql`now()` });
    const body = unique("After the change, published window");
    expect(await clientReviews(l, 4, body)).toMatchObject({ status: 200, success: TRUST_MESSAGES.reviewPosted });
    expect((await reviewRow(l))!.publishedAt).not.toBeNull();
    expect(await profileHtml(l.digger.diggerId, visitor)).toContain(body);
    expect(await subjects(l.digger)).toEqual([`New review for "${l.gig.title}"`]);
    expect(await clientEdits(l, 1, unique("No change"))).toMatchObject({ status: 409, error: TWO_WAY_TEXTS.locked });

    // A review written before the change (published with its hire's window) stays shown.
    const old = await lead({ hired: false });
    await db().insert(hires).values(old.pair);
    await db().insert(reviewWindows).values({ ...old.pair, leadPurchaseId: old.purchaseId, openedAt: sql`now() - interval '20 days'`, endsAt: sql`now() - interval '6 days'`, publishedAt: sql`now()` });
    const oldBody = unique("Written long ago");
    await db().insert(reviews).values({ ...old.pair, leadPurchaseId: old.purchaseId, rating: 3, body: oldBody, createdAt: sql`now() - interval '19 days'`, publishedAt: sql`now() - interval '19 days'` });
    expect(await profileHtml(old.digger.diggerId, visitor)).toContain(oldBody);
    expect(await figures(old.digger.diggerId)).toEqual({ average: 3, total: 1 });
    expect(await sweepReviewWindows(app.services)).toBeDefined();
    expect((await reviewRow(old))!.publishedAt).not.toBeNull();
  });

  it("of a digger who was not hired: today's path, published at once, told as a new review, editable for 30 days", async () => {
    const l = await lead({ hired: false });
    const body = unique("Not hired");
    expect(await clientReviews(l, 4, body)).toMatchObject({ status: 200, success: TRUST_MESSAGES.reviewPosted });
    expect(await windowOf(app, l.pair)).toBeUndefined();
    expect((await reviewRow(l))!.publishedAt).not.toBeNull();
    expect(await figures(l.digger.diggerId)).toEqual({ average: 4, total: 1 });
    expect(await profileHtml(l.digger.diggerId, visitor)).toContain(body);
    expect(await subjects(l.digger)).toEqual([`New review for "${l.gig.title}"`]);
    expect((await mailTo(app, l.digger.email))[0]!.textBody).toContain("4 out of 5 stars");
    expect((await buyerRow(l)).review).toMatchObject({ published: true, editable: true, waitingText: null });
    expect(await clientEdits(l, 5, unique("Edited, not hired"))).toEqual({ status: 200, success: TRUST_MESSAGES.reviewUpdated });
    expect(await figures(l.digger.diggerId)).toEqual({ average: 5, total: 1 });
    await db().update(reviews).set({ createdAt: sql`now() - interval '31 days'` }).where(eq(reviews.gigId, l.gig.id));
    expect(await clientEdits(l, 1, unique("Too late, not hired"))).toMatchObject({ status: 409, error: TRUST_MESSAGES.editWindowClosed });
  });
});

describe("the windows' sweep", () => {
  it("reads the due windows through review_windows_due_idx", async () => {
    const l = await lead();
    await moveWindowBack(app, l.pair, 15);
    const recorded: Statement[] = [];
    await sweepReviewWindows({ db: recordingDb(app, recorded), emit: app.services.emit });
    expect((await windowOf(app, l.pair))!.publishedAt).not.toBeNull();
    const reads = recorded.filter((s) => /from review_windows\s+where published_at is null/.test(s.sql) && /order by ends_at/.test(s.sql));
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const read of reads) expect(await plan(app, read)).toContain("review_windows_due_idx");
  });
});
