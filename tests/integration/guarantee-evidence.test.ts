/**
 * Issue 48, the decisions beside the evidence: what a purchase's thread shows in the client's
 * issues dialog, the operators' payments page and user page; an issue approved at once when the
 * client had not opened the thread 48 hours after the digger's first answer (within the digger's
 * bound); a Fake or Spam Request decided by an operator only (the client neither asked nor told;
 * approving refunds every buyer once and takes the gig down); and the operators' queue of reply
 * guarantee refunds past a digger's bound. Times are moved back in the database.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUE_MESSAGES, type GigIssue } from "../../core/lead-issues.ts";
import {
  FAKE_REQUEST_TAKEDOWN_REASON,
  FAKE_REQUEST_TEXTS,
  GUARANTEE_REFUNDS_PER_DIGGER,
  GUARANTEE_TEXTS,
  gigRemovedRefundNotice,
  guaranteeDeclinedNotice,
  guaranteeRefundedNotice,
} from "../../core/reply-guarantee.ts";
import { OPERATORS_OWN_RECORDS } from "../../core/operator-actions.ts";
import { gigs, leadIssues, leadPurchases, notifications, operatorActions, refunds, threads } from "../../server/db/schema.ts";
import { autoApproveOverdueIssues } from "../../server/leads/issue-deadlines.ts";
import { readerTime } from "../../server/reader-time.ts";
import { addDiggerProfile, signUpAs, signUpOperator, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, insertGig, mailTo, type BoughtLead } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
let ops: TestUser;
beforeAll(async () => {
  app = await createTestApp();
  ops = await signUpOperator(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const report = (lead: BoughtLead, issueType: string, description = "Nobody answers at this number.") =>
  lead.digger.client.post("/my-leads", { intent: "report-issue", purchaseId: lead.purchaseId, issueType, description });
const issueOf = async (purchaseId: string) => (await db().select().from(leadIssues).where(eq(leadIssues.leadPurchaseId, purchaseId)))[0]!;
const refundsOn = (purchaseIds: string[]) => db().select().from(refunds).where(inArray(refunds.leadPurchaseId, purchaseIds));
const issuesOf = async (client: SessionClient, gigId: string) => ((await (await client.get(`/my-gigs/${gigId}/issues`)).json()) as { issues: GigIssue[] }).issues;
const paymentsHtml = async (client = ops.client) => decodeHtml(await (await client.get("/ops/payments")).text());
const post = (client: SessionClient, form: Record<string, string>) => client.post("/ops/payments", form);
const audited = (subjectId: string) => db().select().from(operatorActions).where(eq(operatorActions.subjectId, subjectId));
const hoursFromNow = (date: Date | null) => (date!.getTime() - Date.now()) / 3_600_000;
const subjects = async (address: string) => (await mailTo(app, address)).map((mail) => mail.subject);
const bells = async (userId: string) => (await db().select().from(notifications).where(eq(notifications.userId, userId))).map((row) => row.text);

/**
 * Sets what purchase `purchaseId`'s thread shows: the digger's first answer `firstHoursAgo` ago
 * (`afterBuyingHours` after the purchase), the counts, and when the client opened it.
 */
async function threadShows(purchaseId: string, e: { firstHoursAgo: number; afterBuyingHours?: number; digger?: number; client?: number; openedHoursAgo?: number | null }) {
  const buying = e.firstHoursAgo + (e.afterBuyingHours ?? 1);
  await db()
    .update(leadPurchases)
    .set({ purchasedAt: sql`now() - make_interval(hours => ${buying})` })
    .where(eq(leadPurchases.id, purchaseId));
  await db()
    .update(threads)
    .set({
      diggerFirstAt: sql`now() - make_interval(hours => ${e.firstHoursAgo})`,
      diggerMessages: e.digger ?? 1,
      clientMessages: e.client ?? 0,
      clientOpenedAt: e.openedHoursAgo == null ? null : sql`now() - make_interval(hours => ${e.openedHoursAgo})`,
    })
    .where(eq(threads.purchaseId, purchaseId));
}

describe("the evidence beside every decision", () => {
  it("shows the client, in their words, what the thread shows; the operators see it on the payments page and the user page", async () => {
    const lead = await boughtLead(app);
    await threadShows(lead.purchaseId, { firstHoursAgo: 10, afterBuyingHours: 2, digger: 3, client: 1, openedHoursAgo: 5 });
    expect((await report(lead, "changed_mind")).status).toBe(200);
    const [thread] = await db().select().from(threads).where(eq(threads.purchaseId, lead.purchaseId));
    const opened = readerTime(null, app.config).dateTime(thread!.clientOpenedAt!);

    const [issue] = await issuesOf(lead.client.client, lead.gig.id);
    expect(issue!.evidence).toEqual({
      opened: `You opened this digger's thread ${opened}`,
      messages: "Messages: 3 from the digger, 1 from the client",
      firstMessage: "First message 2 hours after buying",
    });

    // Past the client's deadline and with the operators: the payments page shows the same evidence.
    await db()
      .update(leadIssues)
      .set({ respondBy: sql`now() - interval '1 hour'`, escalatedAt: sql`now()`, operatorRespondBy: sql`now() + interval '72 hours'` })
      .where(eq(leadIssues.leadPurchaseId, lead.purchaseId));
    const payments = await paymentsHtml();
    expect(payments).toContain(`Client opened your thread ${opened}`);
    expect(payments).toContain("Messages: 3 from the digger, 1 from the client");
    const userPage = decodeHtml(await (await ops.client.get(`/ops/users/${lead.digger.id}`)).text());
    expect(userPage).toContain(`Client opened your thread ${opened}`);
    expect(userPage).toContain("First message 2 hours after buying");
  });

  it("says when the client has not opened the thread and the digger has not written", async () => {
    const lead = await boughtLead(app);
    expect((await report(lead, "mistake")).status).toBe(200);
    const [issue] = await issuesOf(lead.client.client, lead.gig.id);
    expect(issue!.evidence).toEqual({
      opened: "You have not opened this digger's thread",
      messages: "Messages: 0 from the digger, 0 from the client",
      firstMessage: "No message from the digger yet",
    });
  });
});

describe("an issue approved by the evidence", () => {
  it("approves at once, refunds once and tells the digger, when the client had not opened the thread 48 hours after the first answer", async () => {
    const lead = await boughtLead(app);
    await threadShows(lead.purchaseId, { firstHoursAgo: 49 });
    const response = await report(lead, "changed_mind");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(ISSUE_MESSAGES.approvedByGuarantee);
    expect(await issueOf(lead.purchaseId)).toMatchObject({ status: "approved", decidedBy: "guarantee" });
    const paid = await refundsOn([lead.purchaseId]);
    expect(paid).toHaveLength(1);
    const [purchase] = await db().select().from(leadPurchases).where(eq(leadPurchases.id, lead.purchaseId));
    expect(paid[0]).toMatchObject({ reason: "issue_approved", amountCents: purchase!.amountPaidCents, status: "succeeded" });
    // The client is not asked: no report's e-mail.
    expect((await subjects(lead.client.email)).filter((s) => s.includes("reported an issue"))).toEqual([]);
    const [toDigger] = await mailTo(app, lead.digger.email);
    expect(toDigger!.subject).toBe(`Your issue report for "${lead.gig.title}" was approved`);
    expect(toDigger!.textBody).toContain("had not opened your thread 48 hours after your first message");
    // Decided: the client's late click changes nothing.
    const late = await lead.client.client.post(`/my-gigs/${lead.gig.id}/issues`, { issueId: (await issueOf(lead.purchaseId)).id, decision: "reject" });
    expect(late.status).toBe(409);
    expect(await refundsOn([lead.purchaseId])).toHaveLength(1);
  });

  it("waits for the client as before when the client opened the thread, or 48 hours have not passed", async () => {
    const opened = await boughtLead(app);
    await threadShows(opened.purchaseId, { firstHoursAgo: 60, openedHoursAgo: 1 });
    const recent = await boughtLead(app);
    await threadShows(recent.purchaseId, { firstHoursAgo: 47 });
    const silent = await boughtLead(app);
    for (const lead of [opened, recent, silent]) {
      const response = await report(lead, "changed_mind");
      expect(await response.text()).toContain(ISSUE_MESSAGES.reported);
      expect(await issueOf(lead.purchaseId)).toMatchObject({ status: "pending", decidedBy: null, escalatedAt: null });
      expect(await refundsOn([lead.purchaseId])).toHaveLength(0);
      expect((await subjects(lead.client.email)).filter((s) => s.includes("reported an issue"))).toHaveLength(1);
    }
  });

  it(`approves at most ${GUARANTEE_REFUNDS_PER_DIGGER} in 30 days per digger, counted with the guarantee's own refunds; past that the client decides`, async () => {
    const first = await boughtLead(app);
    const digger = first.digger;
    const more = [];
    for (let i = 0; i < GUARANTEE_REFUNDS_PER_DIGGER; i++) more.push(await boughtLead(app, {}));
    // The same digger buys each lead: move the purchases over to them.
    const leads = [first, ...more].map((lead) => ({ ...lead, digger }));
    await db()
      .update(leadPurchases)
      .set({ diggerId: digger.diggerId })
      .where(inArray(leadPurchases.id, leads.map((lead) => lead.purchaseId)));
    await db().update(threads).set({ diggerUserId: digger.id }).where(inArray(threads.purchaseId, leads.map((lead) => lead.purchaseId)));
    for (const lead of leads) await threadShows(lead.purchaseId, { firstHoursAgo: 50 });
    // One refund by the guarantee itself counts toward the bound.
    // (written as recordGuaranteeRefund writes it: the refund and the purchase's outcome)
    await db().insert(refunds).values({ leadPurchaseId: leads[0]!.purchaseId, leadIssueId: null, reason: "reply_guarantee", amountCents: 100 });
    await db().update(leadPurchases).set({ guaranteeOutcome: "refunded", guaranteeSettledAt: sql`now()` }).where(eq(leadPurchases.id, leads[0]!.purchaseId));
    const outcomes = [];
    for (const lead of leads.slice(1)) {
      await report(lead, "mistake");
      outcomes.push((await issueOf(lead.purchaseId)).decidedBy);
    }
    expect(outcomes).toEqual(["guarantee", "guarantee", null]);
    // These are not automatic approvals: decision 0031's count (decided_by 'automatic') is untouched.
    const automatic = await db().select().from(leadIssues).where(and(eq(leadIssues.diggerId, digger.diggerId), eq(leadIssues.decidedBy, "automatic")));
    expect(automatic).toHaveLength(0);
  });
});

/** A gig of a new client bought by three diggers, the first of whom reports it as fake. */
async function fakeGig() {
  const first = await boughtLead(app);
  const second = await boughtLead(app, { client: first.client, gig: first.gig });
  const third = await boughtLead(app, { client: first.client, gig: first.gig });
  const otherGig = await insertGig(app, first.client.id, { title: `Another request ${first.gig.id.slice(0, 6)}` });
  await threadShows(first.purchaseId, { firstHoursAgo: 20, digger: 2 });
  const response = await report(first, "fake_request", "The phone number is fake and the address does not exist.");
  return { first, second, third, otherGig, response, issue: await issueOf(first.purchaseId) };
}

describe("a Fake or Spam Request", () => {
  it("goes to the operators at once: the client is neither asked nor told, and no deadline approves it", async () => {
    const { first, otherGig, response, issue } = await fakeGig();
    expect(response.status).toBe(200);
    // The toast's text, as the page's data writes it (its "&" escaped).
    expect(await response.text()).toContain(ISSUE_MESSAGES.fakeReported.replace("&", "\\u0026"));
    expect(issue).toMatchObject({ issueType: "fake_request", refundPercentage: 100, status: "pending" });
    expect(hoursFromNow(issue.respondBy)).toBeLessThan(0.01);
    expect(issue.escalatedAt).toBeInstanceOf(Date);
    expect(hoursFromNow(issue.operatorRespondBy)).toBeGreaterThan(71.9);
    expect(await issuesOf(first.client.client, first.gig.id)).toEqual([]);
    expect((await subjects(first.client.email)).filter((s) => s.includes("issue"))).toEqual([]);
    expect((await bells(first.client.id)).filter((t) => t.includes("issue"))).toEqual([]);
    // The client cannot decide it, even knowing its id.
    expect((await first.client.client.post(`/my-gigs/${first.gig.id}/issues`, { issueId: issue.id, decision: "reject" })).status).toBe(404);
    // The digger's lead card names who decides: the operators, not the client's deadline.
    const leads = decodeHtml(await (await first.digger.client.get("/my-leads")).text());
    expect(leads).toContain(ISSUE_MESSAGES.fakePending);
    expect(leads).not.toContain("The client has until");

    // The operators' page: with the evidence and the client's other gigs.
    const html = await paymentsHtml();
    expect(html).toContain(`on "${first.gig.title}"`);
    expect(html).toContain("Fake or Spam Request");
    expect(html).toContain(FAKE_REQUEST_TEXTS.otherGigsTitle);
    expect(html).toContain(otherGig.title);
    expect(html).toContain("Messages: 2 from the digger, 0 from the client");

    // Past the operators' deadline it still waits for them.
    await db().update(leadIssues).set({ operatorRespondBy: sql`now() - interval '1 hour'` }).where(eq(leadIssues.id, issue.id));
    await autoApproveOverdueIssues(app.services);
    expect(await issueOf(first.purchaseId)).toMatchObject({ status: "pending", decidedBy: null });
    // The overdue-issue decision is not its path.
    expect((await post(ops.client, { intent: "decide-issue", issueId: issue.id, decision: "approve" })).status).toBe(404);
    expect(await issueOf(first.purchaseId)).toMatchObject({ status: "pending" });
  });

  it("approved: refunds every buyer what is left once, takes the gig down with the neutral notice, writes the audit rows", async () => {
    const { first, second, third, issue } = await fakeGig();
    // The second buyer already had part of their purchase back.
    await db().insert(refunds).values({ leadPurchaseId: second.purchaseId, leadIssueId: null, reason: "duplicate_payment", amountCents: 1000, status: "succeeded", completedAt: new Date() });
    const [paid] = await db().select({ cents: leadPurchases.amountPaidCents }).from(leadPurchases).where(eq(leadPurchases.id, first.purchaseId));
    const price = paid!.cents;

    const approved = await post(ops.client, { intent: "decide-fake-request", issueId: issue.id, decision: "approve" });
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain(FAKE_REQUEST_TEXTS.approved);
    expect(await issueOf(first.purchaseId)).toMatchObject({ status: "approved", decidedBy: "operator" });
    const rows = await refundsOn([first.purchaseId, second.purchaseId, third.purchaseId]);
    const byPurchase = (id: string) => rows.filter((r) => r.leadPurchaseId === id).map((r) => [r.reason, r.amountCents]);
    expect(byPurchase(first.purchaseId)).toEqual([["issue_approved", price]]);
    expect(byPurchase(second.purchaseId).sort()).toEqual([["duplicate_payment", 1000], ["gig_removed", price - 1000]].sort());
    expect(byPurchase(third.purchaseId)).toEqual([["gig_removed", price]]);

    const [gig] = await db().select().from(gigs).where(eq(gigs.id, first.gig.id));
    expect(gig!.hiddenAt).toBeInstanceOf(Date);
    expect(gig!.hiddenReason).toBe(FAKE_REQUEST_TAKEDOWN_REASON);
    expect((await audited(issue.id)).map((a) => [a.action, a.subjectType, a.subjectUserId, a.operatorId])).toEqual([["fake_request.approve", "issue", first.digger.id, ops.id]]);
    expect((await audited(first.gig.id)).map((a) => [a.action, a.reason])).toEqual([["gig.hide", FAKE_REQUEST_TAKEDOWN_REASON]]);

    // The client: the neutral notice of a gig taken down, never the report.
    const toClient = await subjects(first.client.email);
    expect(toClient).toContain(`Your gig "${first.gig.title}" was hidden`);
    expect(toClient.filter((s) => s.includes("issue"))).toEqual([]);
    // Each buyer hears of their refund.
    for (const buyer of [second, third]) {
      expect(await subjects(buyer.digger.email)).toContain(gigRemovedRefundNotice(first.gig.title));
      expect(await bells(buyer.digger.id)).toContain(gigRemovedRefundNotice(first.gig.title));
    }
    expect(await subjects(first.digger.email)).toContain(`Your issue report for "${first.gig.title}" was approved`);

    // Twice: nothing more.
    const again = await post(ops.client, { intent: "decide-fake-request", issueId: issue.id, decision: "approve" });
    expect(again.status).toBe(409);
    expect(await refundsOn([first.purchaseId, second.purchaseId, third.purchaseId])).toHaveLength(rows.length);
    expect(await audited(first.gig.id)).toHaveLength(1);
  });

  it("rejected: the issue rejected, the digger told, nothing else", async () => {
    const { first, second, issue } = await fakeGig();
    const rejected = await post(ops.client, { intent: "decide-fake-request", issueId: issue.id, decision: "reject" });
    expect(rejected.status).toBe(200);
    expect(await rejected.text()).toContain(FAKE_REQUEST_TEXTS.rejected);
    expect(await issueOf(first.purchaseId)).toMatchObject({ status: "rejected", decidedBy: "operator" });
    expect(await refundsOn([first.purchaseId, second.purchaseId])).toHaveLength(0);
    const [gig] = await db().select().from(gigs).where(eq(gigs.id, first.gig.id));
    expect(gig!.hiddenAt).toBeNull();
    expect((await audited(issue.id)).map((a) => a.action)).toEqual(["fake_request.reject"]);
    expect(await subjects(first.digger.email)).toContain(`Your issue report for "${first.gig.title}" was rejected`);
    expect((await subjects(first.client.email)).filter((s) => s.includes("issue") || s.includes("hidden"))).toEqual([]);
  });

  it("refuses a non-operator, a signed-out request, and an operator who is the client or another buyer", async () => {
    const { first, second, issue } = await fakeGig();
    const form = { intent: "decide-fake-request", issueId: issue.id, decision: "approve" };
    expect((await post(first.digger.client, form)).status).toBe(404);
    expect((await post(first.client.client, form)).status).toBe(404);
    expect((await post(new SessionClient(app), form)).status).toBe(404);
    expect((await post(ops.client, { ...form, issueId: "not-a-uuid" })).status).toBe(400);
    expect((await post(ops.client, { ...form, decision: "refund-all" })).status).toBe(400);

    // An operator who bought the gig's lead too: their own refund would be in it.
    const buyerOps = await signUpOperator(app, "Bea Buyer-Operator");
    const buyerDiggerId = await addDiggerProfile(app, buyerOps);
    await db().update(leadPurchases).set({ diggerId: buyerDiggerId }).where(eq(leadPurchases.id, second.purchaseId));
    const own = await post(buyerOps.client, form);
    expect(own.status).toBe(403);
    expect(await own.text()).toContain(OPERATORS_OWN_RECORDS);

    // An operator whose gig it is.
    const clientOps = await signUpOperator(app, "Carl Client-Operator");
    await db().update(gigs).set({ clientId: clientOps.id }).where(eq(gigs.id, first.gig.id));
    expect((await post(clientOps.client, form)).status).toBe(403);
    expect(await issueOf(first.purchaseId)).toMatchObject({ status: "pending" });
    expect(await refundsOn([first.purchaseId, second.purchaseId])).toHaveLength(0);
  });
});

describe("the operators' queue of reply guarantee refunds past the digger's bound", () => {
  async function escalated(hoursAgo: number) {
    const lead = await boughtLead(app);
    await threadShows(lead.purchaseId, { firstHoursAgo: 60, digger: 1 });
    await db()
      .update(leadPurchases)
      .set({ guaranteeOutcome: "escalated", guaranteeSettledAt: sql`now() - make_interval(hours => ${hoursAgo})` })
      .where(eq(leadPurchases.id, lead.purchaseId));
    return lead;
  }
  const decide = (client: SessionClient, purchaseId: string, decision: string) => post(client, { intent: "decide-guarantee", purchaseId, decision });
  const purchaseRow = async (id: string) => (await db().select().from(leadPurchases).where(eq(leadPurchases.id, id)))[0]!;

  it("lists them oldest first with the evidence; approve refunds once and tells the digger; twice is 409", async () => {
    const newer = await escalated(1);
    const older = await escalated(5);
    const html = await paymentsHtml();
    const section = html.slice(html.indexOf(GUARANTEE_TEXTS.queueTitle));
    expect(section.indexOf(older.gig.title)).toBeGreaterThan(-1);
    expect(section.indexOf(older.gig.title)).toBeLessThan(section.indexOf(newer.gig.title));
    expect(section).toContain("Client has not opened your thread");

    const approved = await decide(ops.client, older.purchaseId, "approve");
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain(GUARANTEE_TEXTS.approved);
    const row = await purchaseRow(older.purchaseId);
    expect(row).toMatchObject({ guaranteeOutcome: "refunded" });
    expect((await refundsOn([older.purchaseId])).map((r) => [r.reason, r.amountCents, r.status])).toEqual([["reply_guarantee", row.amountPaidCents, "succeeded"]]);
    expect((await audited(older.digger.id)).map((a) => [a.action, a.operatorId, a.details.purchaseId])).toEqual([["guarantee.approve", ops.id, older.purchaseId]]);
    expect(await subjects(older.digger.email)).toContain(guaranteeRefundedNotice(older.gig.title));

    for (const decision of ["approve", "reject"]) {
      const again = await decide(ops.client, older.purchaseId, decision);
      expect(again.status).toBe(409);
      expect(await again.text()).toContain(GUARANTEE_TEXTS.alreadyDecided);
    }
    expect(await refundsOn([older.purchaseId])).toHaveLength(1);
    expect(await paymentsHtml()).not.toContain(`on "${older.gig.title}"`);
  });

  it("reject declines it, tells the digger and writes the audit row; nothing is refunded", async () => {
    const lead = await escalated(2);
    const rejected = await decide(ops.client, lead.purchaseId, "reject");
    expect(rejected.status).toBe(200);
    expect(await rejected.text()).toContain(GUARANTEE_TEXTS.declinedToast);
    const row = await purchaseRow(lead.purchaseId);
    expect(row.guaranteeOutcome).toBe("declined");
    expect(row.guaranteeSettledAt).toBeInstanceOf(Date);
    expect(await refundsOn([lead.purchaseId])).toHaveLength(0);
    expect((await audited(lead.digger.id)).map((a) => a.action)).toEqual(["guarantee.decline"]);
    expect(await subjects(lead.digger.email)).toContain(guaranteeDeclinedNotice(lead.gig.title));
    expect(await bells(lead.digger.id)).toContain(guaranteeDeclinedNotice(lead.gig.title));
    expect((await decide(ops.client, lead.purchaseId, "approve")).status).toBe(409);
  });

  it("refuses a purchase not in the queue, a non-operator, a signed-out request and the operator's own record", async () => {
    const lead = await escalated(3);
    const plain = await boughtLead(app);
    expect((await decide(ops.client, plain.purchaseId, "approve")).status).toBe(404);
    expect((await decide(ops.client, "not-a-uuid", "approve")).status).toBe(400);
    expect((await decide(ops.client, lead.purchaseId, "maybe")).status).toBe(400);
    expect((await decide(lead.digger.client, lead.purchaseId, "approve")).status).toBe(404);
    expect((await decide(lead.client.client, lead.purchaseId, "approve")).status).toBe(404);
    expect((await decide(new SessionClient(app), lead.purchaseId, "approve")).status).toBe(404);
    const clientOps = await signUpOperator(app, "Cleo Client-Operator");
    await db().update(gigs).set({ clientId: clientOps.id }).where(eq(gigs.id, lead.gig.id));
    const own = await decide(clientOps.client, lead.purchaseId, "approve");
    expect(own.status).toBe(403);
    expect((await purchaseRow(lead.purchaseId)).guaranteeOutcome).toBe("escalated");
    expect(await refundsOn([lead.purchaseId])).toHaveLength(0);
    // A signed-in client who is not an operator sees nothing of the page either.
    const stranger = await signUpAs(app, "consumer", "Stan Stranger");
    expect((await stranger.client.get("/ops/payments")).status).toBe(404);
  });
});
